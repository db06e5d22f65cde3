package org.ferry.mover.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.ferry.mover.data.DataChannels;
import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.data.DataSink;
import org.ferry.mover.data.DataSource;
import org.ferry.mover.data.ModeECache;
import org.ferry.mover.data.PassiveListener;
import org.ferry.mover.protocol.ByteRange;
import org.ferry.mover.protocol.FileInfo;
import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.protocol.HostPort;
import org.ferry.mover.protocol.TarModule;

/**
 * The {@link GridFtpSession} of {@link GridFtpClient}: drives one control channel with blocking
 * command/reply exchanges and moves data with {@link DataChannels}. Command sequences follow
 * globus-url-copy (globus-url-copy's session set-up, RFC 959 section 5.3; RFC 959 section 5.2 (server to server)): MODE and {@code OPTS RETR} are sent only
 * when they differ from what this session last set; MODE E downloads use PORT (the sending server
 * connects), MODE E uploads PASV (we connect).
 */
final class DefaultGridFtpSession implements GridFtpSession {

    /** How long to wait for the replies to ABOR before giving up on them. */
    private static final long ABORT_WAIT_MILLIS = 5_000;

    private static final long POLL_MILLIS = 100;
    /** How long a failed data transfer waits for the server's own final reply before ABOR. */
    private static final long EXPLANATION_WAIT_MILLIS = 2_000;
    /** Period of the performance markers asked of a third-party source. */
    private static final int SOURCE_MARKER_SECONDS = 5;

    private final GridFtpUrl url;
    private final ControlChannel control;
    private DataChannels data; // secured per transfer by protection (DCAU/PROT)
    private ClientDataProtection protection;
    private TransferOptions.Mode mode = TransferOptions.Mode.STREAM; // RFC 959 default
    private String retrOptions = ""; // the OPTS RETR options last set; "" = never set by us
    private boolean closed;
    // MODE E connection caching (GFD.020 "Extended Block Mode", data connection reuse). As globus's client
    // (globus_i_ftp_client_can_reuse_data_conn): reuse only in MODE E, for the same operation
    // between the same pair, with no PASV/PORT/MODE change in between.
    private final ModeECache dataCache = new ModeECache(); // our own cached connections (two-party)
    private PassiveListener downloadListener; // kept open while MODE E download connections are cached
    private InetSocketAddress uploadAddress; // the PASV address cached upload connections lead to
    private DataUse dataUse; // what the server's cached connections were last used for; null = nothing
    private int dataSetups; // PASV and PORT commands sent, for tests of connection reuse
    private List<String> features; // FEAT lines, upper case, once asked
    private int tarSteps; // ERET TAR commands sent, for tests

    /** What a session's cached MODE E data connections were set up for. */
    private record DataUse(String operation, DefaultGridFtpSession peer) {
        static final DataUse UPLOAD = new DataUse("upload", null);
        static final DataUse DOWNLOAD = new DataUse("download", null);
    }

    private DefaultGridFtpSession(GridFtpUrl url, ControlChannel control, DataChannels data) {
        this.url = url.withPath("/");
        this.control = control;
        this.data = data;
        this.protection = new ClientDataProtection(null, data, false);
    }

    /**
     * Reads the banner and logs in (RFC 959 section 4.1.1: USER, 331, PASS, 230), then TYPE I.
     *
     * @throws GridFtpReplyException on a refused login (530) or banner other than 220
     * @throws IOException if the connection fails
     */
    static DefaultGridFtpSession login(GridFtpUrl url, ControlChannel control, DataChannels data) throws IOException {
        return login(url, control, data, null);
    }

    /**
     * As {@link #login(GridFtpUrl, ControlChannel, DataChannels)}, first authenticating with
     * {@code AUTH GSSAPI}/{@code ADAT} when {@code security} is given (RFC 2228, RFC 2228 section 3 (AUTH, ADAT) with the GSI mechanism), then protecting the channel and logging in as {@code :globus-mapping:} (the grid-mapfile
     * decides the account) unless the URL names a user.
     *
     * @throws GridFtpReplyException on a refused AUTH/ADAT/login
     * @throws IOException if the connection fails
     */
    static DefaultGridFtpSession login(
            GridFtpUrl url, ControlChannel control, DataChannels data, org.ferry.gsi.context.SecurityContext security)
            throws IOException {
        return login(url, control, data, security, null);
    }

    /**
     * As {@link #login(GridFtpUrl, ControlChannel, DataChannels, org.ferry.gsi.context.SecurityContext)};
     * with {@code gsi} the session also authenticates data channels (DCAU A by default when the
     * server's FEAT lists DCAU, GFD.020 "DCAU", RFC 2228 section 3 (PROT)) with {@code gsi}'s credential.
     *
     * @param gsi the credential and trust behind {@code security}, or null to send {@code DCAU N}
     * @throws GridFtpReplyException on a refused AUTH/ADAT/login
     * @throws IOException if the connection fails
     */
    static DefaultGridFtpSession login(
            GridFtpUrl url,
            ControlChannel control,
            DataChannels data,
            org.ferry.gsi.context.SecurityContext security,
            GsiClientSecurity gsi)
            throws IOException {
        DefaultGridFtpSession session = new DefaultGridFtpSession(url, control, data);
        try {
            FtpReply banner = control.readFinal("connect", r -> {});
            if (banner.code() != 220) {
                throw new GridFtpReplyException("connect", banner.code(), banner.text());
            }
            String userName = url.username();
            if (security != null) {
                session.authenticate(security);
                if (userName == null || userName.isEmpty() || userName.equals("anonymous")) {
                    userName = ":globus-mapping:";
                }
            }
            FtpReply user = session.command("USER " + userName);
            if (user.code() == 331) {
                user = session.command("PASS " + url.password(), "PASS ****");
            }
            if (!user.isPositiveCompletion()) {
                throw new GridFtpReplyException("USER/PASS", user.code(), user.text());
            }
            session.expectOk("TYPE I");
            if (security != null && gsi != null) {
                FtpReply feat = session.command("FEAT");
                boolean dcau = feat.isPositiveCompletion()
                        && feat.lines().stream()
                                .anyMatch(
                                        l -> l.strip().toUpperCase(Locale.ROOT).startsWith("DCAU"));
                session.protection = new ClientDataProtection(gsi, data, dcau);
            } else if (security != null) {
                // No credential for data channels: ask for none (as the Globus tools behave). A server without
                // DCAU (5xx) is fine: its data channels are clear anyway.
                session.command("DCAU N");
            }
            return session;
        } catch (IOException | RuntimeException e) {
            control.close();
            throw e;
        }
    }

    /** AUTH GSSAPI, then ADAT tokens until 235; then every command and reply is protected. */
    private void authenticate(org.ferry.gsi.context.SecurityContext security) throws IOException {
        FtpReply auth = command("AUTH GSSAPI");
        if (auth.code() != 334) {
            throw new GridFtpReplyException("AUTH GSSAPI", auth.code(), auth.text());
        }
        try {
            byte[] token = security.step(null);
            while (true) {
                FtpReply reply = command("ADAT " + java.util.Base64.getEncoder().encodeToString(token), "ADAT ...");
                String text = reply.firstLineText();
                byte[] in = text.startsWith("ADAT=")
                        ? java.util.Base64.getDecoder().decode(text.substring(5).strip())
                        : null;
                if (reply.code() == 235) {
                    if (in != null && in.length > 0) {
                        security.step(in);
                    }
                    if (!security.established()) {
                        throw new IOException("server said 235 before GSI authentication was complete");
                    }
                    break;
                }
                if (reply.code() != 335) {
                    throw new GridFtpReplyException("ADAT", reply.code(), reply.text());
                }
                token = security.step(in);
                if (security.established() && (token == null || token.length == 0)) {
                    throw new IOException("GSI context complete but server still asks for ADAT");
                }
            }
        } catch (org.ferry.gsi.context.GsiContextException e) {
            throw new IOException("GSI authentication with " + url.host() + " failed: " + e.getMessage(), e);
        }
        control.protect(security);
    }

    @Override
    public GridFtpUrl url() {
        return url;
    }

    // ---- striped third-party transfer (SPAS/SPOR) ----

    @Override
    public long sendStriped(
            String sourcePath,
            GridFtpSession destination,
            String destinationPath,
            int parallelism,
            int blockSizeBytes,
            TransferListener listener)
            throws IOException {
        if (!(destination instanceof DefaultGridFtpSession dest)) {
            throw new IllegalArgumentException("destination must be a session of GridFtpClient");
        }
        if (parallelism < 1 || parallelism > 64 || blockSizeBytes < 1 || blockSizeBytes > (64 << 20)) {
            throw new IllegalArgumentException(
                    "parallelism 1..64 and block size 1..64 MiB, were " + parallelism + " and " + blockSizeBytes);
        }
        long size = size(sourcePath); // fails early with NoSuchFileException
        // RFC 959 section 5.2 (server to server), GFD.020 "Extended Block Mode" with -stripe: destination first (MODE
        // E, SPAS, STOR), then the
        // source (MODE E, OPTS RETR with the layout, SPOR, RETR)
        dest.setMode(TransferOptions.Mode.EXTENDED_BLOCK);
        List<InetSocketAddress> stripes = dest.spas();
        String storCommand = "STOR " + destinationPath;
        dest.control.send(storCommand);
        String retrCommand = "RETR " + sourcePath;
        try {
            setMode(TransferOptions.Mode.EXTENDED_BLOCK);
            setRetrOptions(parallelism(parallelism) + "StripeLayout=Blocked;BlockSize=" + blockSizeBytes + ";markers="
                    + SOURCE_MARKER_SECONDS + ";");
            StringBuilder spor = new StringBuilder("SPOR");
            for (InetSocketAddress stripe : stripes) {
                spor.append(' ').append(HostPort.format(stripe));
            }
            dropData(); // so does SPOR
            expectOk(spor.toString());
        } catch (IOException | RuntimeException e) {
            abort(dest.control);
            throw e;
        }
        control.send(retrCommand);
        MarkerParser markers = new MarkerParser(listener);
        ThirdPartyWait wait = new ThirdPartyWait(control, retrCommand, dest.control, storCommand, markers);
        wait.await(control.replyTimeout());
        return Math.max(size, markers.totalBytes());
    }

    /**
     * SPAS (RFC 959 section 4.1.2, RFC 2428, GFD.020 "SPAS"/"SPOR"): {@code 229-Entering Striped Passive Mode.}, one
     * {@code h1,h2,h3,h4,p1,p2} line per stripe, {@code 229 End}; 0.0.0.0 means the control
     * connection's host.
     */
    private List<InetSocketAddress> spas() throws IOException {
        dropData(); // SPAS, like PASV, destroys the server's cached data connections
        FtpReply reply = expectOk("SPAS");
        List<InetSocketAddress> stripes = new java.util.ArrayList<>();
        for (String line : reply.lines().subList(1, reply.lines().size())) {
            if (line.matches(".*\\d+,\\d+,\\d+,\\d+,\\d+,\\d+.*")) {
                InetSocketAddress address = pasvAddress(line);
                if (address.getAddress().isAnyLocalAddress()) {
                    address = new InetSocketAddress(control.remoteAddress().getAddress(), address.getPort());
                }
                stripes.add(address);
            }
        }
        if (stripes.isEmpty()) {
            throw new GridFtpReplyException("SPAS", reply.code(), "no stripe address in reply: " + reply.text());
        }
        return stripes;
    }

    // ---- simple commands ----

    @Override
    public List<FileInfo> list(String directory) throws IOException {
        DataSink.MemorySink sink = DataSink.toMemory();
        protect(TransferOptions.STREAM);
        setMode(TransferOptions.Mode.STREAM); // listings come in stream mode over PASV
        InetSocketAddress address = pasv();
        CompletableFuture<Long> received = data.receive(sink, new DataEndpoint.Active(address), false, null);
        String command = "MLSD " + directory;
        FtpReply reply = awaitTransfer(command, received, new AtomicLong(), new MarkerParser(TransferListener.NONE));
        if (reply.code() == 550) {
            throw new NoSuchFileException(directory, null, reply.text());
        }
        checkOk(command, reply);
        awaitData(command, received);
        List<FileInfo> entries = new ArrayList<>();
        for (String line : new String(sink.toByteArray(), StandardCharsets.UTF_8).split("\r?\n")) {
            if (!line.isBlank()) {
                FileInfo entry = MlsxParser.parse(line);
                if (entry.type() != FileInfo.Type.CURRENT_DIRECTORY && entry.type() != FileInfo.Type.PARENT_DIRECTORY) {
                    entries.add(entry);
                }
            }
        }
        return entries;
    }

    @Override
    public FileInfo stat(String path) throws IOException {
        String command = "MLST " + path;
        FtpReply reply = command(command);
        if (reply.code() == 550) {
            throw new NoSuchFileException(path, null, reply.text());
        }
        checkOk(command, reply);
        // RFC 3659 section 7.2: the entry is the reply line starting with a space
        for (String line : reply.lines().subList(1, reply.lines().size())) {
            if (line.startsWith(" ")) {
                FileInfo entry = MlsxParser.parse(line.substring(1));
                return new FileInfo(path, entry.type(), entry.sizeBytes(), entry.modified(), entry.unixMode());
            }
        }
        throw new IOException("MLST reply without an entry line: " + reply);
    }

    /**
     * The size of a file with SIZE (RFC 3659 section 4).
     *
     * @throws NoSuchFileException on 550
     * @throws IOException on other failures
     */
    long size(String path) throws IOException {
        String command = "SIZE " + path;
        FtpReply reply = command(command);
        if (reply.code() == 550) {
            throw new NoSuchFileException(path, null, reply.text());
        }
        checkOk(command, reply);
        try {
            return Long.parseLong(reply.firstLineText().trim());
        } catch (NumberFormatException e) {
            throw new IOException("bad SIZE reply: " + reply, e);
        }
    }

    @Override
    public void makeDirectory(String path) throws IOException {
        expectOk("MKD " + path);
    }

    @Override
    public void delete(String path) throws IOException {
        expectOk("DELE " + path);
    }

    @Override
    public void restartMarkerInterval(int seconds) throws IOException {
        if (seconds < 1 || seconds > 86_400) {
            throw new IllegalArgumentException("restart marker interval must be 1..86400 s, was " + seconds);
        }
        expectOk("TREV RESTART " + seconds);
    }

    @Override
    public String checksum(String algorithm, String path) throws IOException {
        // GridFTP CKSM <algorithm> <offset> <length> <path>; length -1 = to the end (GFD.047 "CKSM")
        FtpReply reply = expectOk("CKSM " + algorithm.toUpperCase(Locale.ROOT) + " 0 -1 " + path);
        return reply.firstLineText().trim().toLowerCase(Locale.ROOT);
    }

    // ---- two-party transfers ----

    @Override
    public long download(String remotePath, Path localFile, TransferOptions options, TransferListener listener)
            throws IOException {
        return download(remotePath, localFile, options, listener, -1, -1);
    }

    @Override
    public long downloadPart(
            String remotePath,
            long offset,
            long length,
            Path localFile,
            TransferOptions options,
            TransferListener listener)
            throws IOException {
        checkWindow(offset, length);
        return download(remotePath, localFile, options, listener, offset, length);
    }

    /** RETR, or with {@code offset >= 0} ERET P into that window of the local file (not truncated). */
    private long download(
            String remotePath,
            Path localFile,
            TransferOptions options,
            TransferListener listener,
            long offset,
            long length)
            throws IOException {
        AtomicLong moved = new AtomicLong();
        LongConsumer progress = progress(moved, listener);
        protect(options);
        boolean partial = offset >= 0;
        try (FileChannel out = partial
                ? FileChannel.open(localFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)
                : FileChannel.open(
                        localFile,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
            DataSink sink = DataSink.toFile(out, partial ? offset : 0);
            String command = partial ? "ERET P " + offset + " " + length + " " + remotePath : "RETR " + remotePath;
            if (options.mode() == TransferOptions.Mode.STREAM) {
                setMode(TransferOptions.Mode.STREAM);
                InetSocketAddress address = pasv();
                CompletableFuture<Long> received =
                        data.receive(sink, new DataEndpoint.Active(address), false, progress);
                return finishTransfer(command, received, moved, listener);
            }
            setMode(TransferOptions.Mode.EXTENDED_BLOCK);
            setRetrOptions(parallelism(options.parallelism()));
            // MODE E: the sending server connects, so we listen and send PORT (RFC 959 section 4.1.2,
            // GFD.020 "Extended Block Mode"), unless the connections of the previous download are cached: then neither
            if (!DataUse.DOWNLOAD.equals(dataUse) || downloadListener == null) {
                dropData();
                downloadListener = data.listen(control.localAddress().getAddress());
                dataSetups++;
                expectOk(HostPort.portCommand(downloadListener.address()));
            }
            CompletableFuture<Long> received =
                    data.receive(sink, new DataEndpoint.Passive(downloadListener), true, progress, dataCache);
            return cachedTransfer(DataUse.DOWNLOAD, () -> finishTransfer(command, received, moved, listener));
        }
    }

    @Override
    public long upload(Path localFile, String remotePath, TransferOptions options, TransferListener listener)
            throws IOException {
        return upload(localFile, remotePath, options, listener, -1, -1);
    }

    @Override
    public long uploadPart(
            Path localFile,
            long offset,
            long length,
            String remotePath,
            TransferOptions options,
            TransferListener listener)
            throws IOException {
        checkWindow(offset, length);
        return upload(localFile, remotePath, options, listener, offset, length);
    }

    /** STOR, or with {@code offset >= 0} ESTO A of that window of the local file. */
    private long upload(
            Path localFile,
            String remotePath,
            TransferOptions options,
            TransferListener listener,
            long offset,
            long length)
            throws IOException {
        AtomicLong moved = new AtomicLong();
        protect(options);
        try (FileChannel in = FileChannel.open(localFile, StandardOpenOption.READ)) {
            setMode(options.mode());
            boolean modeE = options.mode() == TransferOptions.Mode.EXTENDED_BLOCK;
            if (!modeE || !DataUse.UPLOAD.equals(dataUse) || uploadAddress == null) {
                uploadAddress = pasv(); // both modes: we send, so we connect
            }
            DataSource source = offset < 0
                    ? DataSource.ofWholeFile(in)
                    : DataSource.ofFile(
                            in, Math.min(offset, in.size()), Math.max(0, Math.min(length, in.size() - offset)));
            CompletableFuture<Long> sent = data.send(
                    source,
                    new DataEndpoint.Active(uploadAddress),
                    modeE,
                    options.parallelism(),
                    progress(moved, listener),
                    modeE ? dataCache : null);
            String command = offset < 0 ? "STOR " + remotePath : "ESTO A " + offset + " " + remotePath;
            if (!modeE) {
                return finishTransfer(command, sent, moved, listener);
            }
            return cachedTransfer(DataUse.UPLOAD, () -> finishTransfer(command, sent, moved, listener));
        }
    }

    /**
     * Drops the control connection without QUIT, as a crashed client would: the server aborts
     * what this session was doing (tests of restart after a fault).
     */
    void abandon() {
        closed = true;
        dropData();
        control.close();
    }

    /** @return how many PASV and PORT commands this session sent (tests of MODE E connection reuse) */
    int dataSetups() {
        return dataSetups;
    }

    /** @return how many ERET TAR steps this session sent as a third-party source (tests of the TAR module) */
    int tarSteps() {
        return tarSteps;
    }

    /** A transfer step that may fail. */
    private interface Step {
        long run() throws IOException;
    }

    /**
     * Runs a MODE E transfer whose connections stay cached: on success remembers {@code use} so the
     * next identical operation skips PASV/PORT; on failure drops the cache (its state is unknown).
     */
    private long cachedTransfer(DataUse use, Step step) throws IOException {
        try {
            long bytes = step.run();
            dataUse = use;
            return bytes;
        } catch (IOException | RuntimeException e) {
            dropData();
            throw e;
        }
    }

    /**
     * Forgets cached MODE E connections: ours are closed, the listener of cached downloads too. Called
     * whenever the server drops its own (PASV, PORT, MODE change) and after a failed transfer.
     */
    private void dropData() {
        dataUse = null;
        uploadAddress = null;
        dataCache.clear();
        if (downloadListener != null) {
            downloadListener.close();
            downloadListener = null;
        }
    }

    private static LongConsumer progress(AtomicLong moved, TransferListener listener) {
        return n -> {
            moved.set(n);
            listener.onProgress(n);
        };
    }

    /** Sends the transfer command, waits for its final reply and the data connections, and checks both. */
    private long finishTransfer(
            String command, CompletableFuture<Long> transfer, AtomicLong moved, TransferListener listener)
            throws IOException {
        FtpReply reply = awaitTransfer(command, transfer, moved, new MarkerParser(listener));
        checkOk(command, reply);
        return awaitData(command, transfer);
    }

    /**
     * Sends {@code command} and waits for its final reply while data moves. The reply timeout
     * counts from the last sign of life: a reply, a marker, or data progress. If the data
     * connections fail first, sends ABOR and throws their error.
     */
    private FtpReply awaitTransfer(
            String command, CompletableFuture<Long> transfer, AtomicLong moved, MarkerParser markers)
            throws IOException {
        control.send(command);
        long timeoutNanos = control.replyTimeout().toNanos();
        long lastSign = System.nanoTime();
        long lastMoved = moved.get();
        try {
            while (true) {
                FtpReply reply = control.poll(POLL_MILLIS);
                if (reply != null) {
                    lastSign = System.nanoTime();
                    if (!reply.isPreliminary()) {
                        if (!reply.isPositiveCompletion()) {
                            transfer.cancel(false);
                        }
                        return reply;
                    }
                    markers.accept(reply);
                    continue;
                }
                if (transfer.isCompletedExceptionally()) {
                    // The server usually fails too and says why (e.g. which identity its DCAU
                    // refused): prefer its final reply to our side's view of a closed connection.
                    FtpReply explanation = awaitExplanation(markers);
                    if (explanation != null) {
                        return explanation;
                    }
                    abort(control);
                    awaitData(command, transfer); // throws the data channel's error
                }
                if (moved.get() != lastMoved) {
                    lastMoved = moved.get();
                    lastSign = System.nanoTime();
                }
                if (System.nanoTime() - lastSign > timeoutNanos) {
                    abort(control);
                    throw new SocketTimeoutException(command + ": no reply and no data for "
                            + control.replyTimeout().toSeconds() + " s from " + control.remoteAddress());
                }
            }
        } catch (IOException | RuntimeException e) {
            transfer.cancel(false);
            throw e;
        }
    }

    /** @return the final reply arriving within {@link #EXPLANATION_WAIT_MILLIS}, or null */
    private FtpReply awaitExplanation(MarkerParser markers) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(EXPLANATION_WAIT_MILLIS);
        while (System.nanoTime() < deadline) {
            FtpReply reply = control.poll(POLL_MILLIS);
            if (reply != null && !reply.isPreliminary()) {
                return reply;
            }
            if (reply != null) {
                markers.accept(reply);
            }
        }
        return null;
    }

    /** Waits for the data side after a positive final reply; it normally has already finished. */
    private long awaitData(String command, CompletableFuture<Long> transfer) throws IOException {
        try {
            return transfer.get(control.replyTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof IOException io
                    ? new IOException(command + ": data channel failed: " + io.getMessage(), io)
                    : new IOException(command + ": data channel failed", cause);
        } catch (TimeoutException e) {
            transfer.cancel(false);
            throw new SocketTimeoutException(command + ": data connections did not finish after the server's reply");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            transfer.cancel(false);
            throw new InterruptedIOException(command + ": interrupted");
        } catch (java.util.concurrent.CancellationException e) {
            throw new IOException(command + ": data transfer cancelled", e);
        }
    }

    // ---- third-party transfer ----

    @Override
    public long sendTo(
            String sourcePath,
            GridFtpSession destination,
            String destinationPath,
            TransferOptions options,
            TransferListener listener)
            throws IOException {
        return thirdParty(sourcePath, destination, destinationPath, options, List.of(), listener);
    }

    @Override
    public long resumeSendTo(
            String sourcePath,
            GridFtpSession destination,
            String destinationPath,
            TransferOptions options,
            List<ByteRange> done,
            TransferListener listener)
            throws IOException {
        return thirdParty(sourcePath, destination, destinationPath, options, done, listener);
    }

    /** The REST command for a restart from {@code done}, or null for a fresh transfer (section 2.6). */
    private static String restCommand(List<ByteRange> done, boolean modeE) {
        List<ByteRange> merged = ByteRange.merge(done);
        if (merged.isEmpty()) {
            return null;
        }
        if (modeE) {
            return "REST " + ByteRange.format(merged);
        }
        long prefix = ByteRange.prefix(merged);
        return prefix == 0 ? null : "REST " + prefix;
    }

    /** Sends REST and expects 350 (RFC 959 section 4.1.3: REST is answered 350). */
    private void rest(String command) throws IOException {
        FtpReply reply = command(command);
        if (reply.code() != 350) {
            throw new GridFtpReplyException(command, reply.code(), reply.text());
        }
    }

    private long thirdParty(
            String sourcePath,
            GridFtpSession destination,
            String destinationPath,
            TransferOptions options,
            List<ByteRange> done,
            TransferListener listener)
            throws IOException {
        return thirdParty(sourcePath, destination, destinationPath, options, done, listener, -1, -1);
    }

    @Override
    public long sendPartTo(
            String sourcePath,
            long offset,
            long length,
            GridFtpSession destination,
            String destinationPath,
            TransferOptions options,
            TransferListener listener)
            throws IOException {
        checkWindow(offset, length);
        return thirdParty(sourcePath, destination, destinationPath, options, List.of(), listener, offset, length);
    }

    private static void checkWindow(long offset, long length) {
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("offset and length must be >= 0, were " + offset + ", " + length);
        }
    }

    /**
     * Third-party transfer; with {@code offset >= 0} a partial one (GFD.020 "ERET"/"ESTO"):
     * {@code ERET P offset length} on the source, {@code ESTO A offset} on the destination.
     */
    private long thirdParty(
            String sourcePath,
            GridFtpSession destination,
            String destinationPath,
            TransferOptions options,
            List<ByteRange> done,
            TransferListener listener,
            long offset,
            long length)
            throws IOException {
        if (!(destination instanceof DefaultGridFtpSession dest)) {
            throw new IllegalArgumentException("destination must be a session of GridFtpClient");
        }
        long size = size(sourcePath); // fails early with NoSuchFileException
        dest.protect(options); // each server authenticates with its own delegated credential
        protect(options);
        if (offset >= 0) {
            size = Math.max(0, Math.min(length, size - offset));
        }
        boolean modeE = options.mode() == TransferOptions.Mode.EXTENDED_BLOCK;
        // RFC 959 section 5.2 (server to server), GFD.020 "Extended Block Mode": destination first (MODE, PASV, STOR),
        // then source (MODE, OPTS, PORT, RETR).
        // Cached MODE E connections between this very pair: no PASV and no PORT (the servers say 125).
        dest.setMode(options.mode());
        setMode(options.mode());
        boolean reuse =
                modeE && new DataUse("send", dest).equals(dataUse) && new DataUse("receive", this).equals(dest.dataUse);
        InetSocketAddress destAddress = reuse ? null : dest.pasv();
        String rest = restCommand(done, modeE);
        if (rest != null) {
            dest.rest(rest); // REST goes last, right before the transfer verb, on both sides
        }
        String storCommand = offset >= 0 ? "ESTO A " + offset + " " + destinationPath : "STOR " + destinationPath;
        dest.control.send(storCommand);
        String retrCommand = offset >= 0 ? "ERET P " + offset + " " + length + " " + sourcePath : "RETR " + sourcePath;
        try {
            // markers: the sending server then reports progress (112) even in stream mode, which
            // keeps the inactivity timeout from firing during long third-party transfers
            int streams = modeE ? options.parallelism() : 1;
            setRetrOptions(parallelism(streams) + "markers=" + SOURCE_MARKER_SECONDS + ";");
            if (!reuse) {
                dropData();
                dataSetups++;
                expectOk(HostPort.portCommand(destAddress));
            }
            if (rest != null) {
                rest(rest);
            }
        } catch (IOException | RuntimeException e) {
            abort(dest.control);
            dest.dropData();
            throw e;
        }
        control.send(retrCommand);
        MarkerParser markers = new MarkerParser(listener);
        ThirdPartyWait wait = new ThirdPartyWait(control, retrCommand, dest.control, storCommand, markers);
        try {
            wait.await(control.replyTimeout());
        } catch (IOException | RuntimeException e) {
            dropData();
            dest.dropData();
            throw e;
        }
        if (modeE) {
            dataUse = new DataUse("send", dest);
            dest.dataUse = new DataUse("receive", this);
        } else {
            dataUse = null;
            dest.dataUse = null;
        }
        return Math.max(size, markers.totalBytes());
    }

    // ---- batches with pipelining (GridFTP pipelining (Bresnahan et al., TeraGrid 2007)) ----

    /** How long a failed batch waits for the replies to its remaining pipelined commands. */
    private static final Duration DRAIN_QUIET = Duration.ofSeconds(5);
    /** How long the destination may take to fail a step on its own after the source refused it. */
    private static final Duration SINK_ANSWER_WAIT = Duration.ofMillis(300);

    @Override
    public long sendAll(
            List<FilePair> files,
            GridFtpSession destination,
            TransferOptions options,
            int pipelineDepth,
            TransferListener listener)
            throws IOException {
        GridFtpSession.checkDepth(pipelineDepth);
        if (!(destination instanceof DefaultGridFtpSession dest)) {
            throw new IllegalArgumentException("destination must be a session of GridFtpClient");
        }
        if (options.mode() == TransferOptions.Mode.STREAM || files.isEmpty()) {
            return GridFtpSession.super.sendAll(files, destination, options, pipelineDepth, listener);
        }
        dest.protect(options);
        protect(options);
        long[] sizes = sizes(files);
        boolean tar = options.tarStreams() && offers(TarModule.FEATURE) && dest.offers(TarModule.FEATURE);
        List<TarBatchPlan.Step> steps = TarBatchPlan.steps(files, sizes, tar);
        int[] completedSteps = {0};
        long[] moved = {0};
        try {
            return pipelineThirdParty(
                    dest, options, steps, files, sizes, pipelineDepth, listener, completedSteps, moved);
        } catch (GridFtpReplyException e) {
            if (completedSteps[0] >= steps.size()
                    || !steps.get(completedSteps[0]).isTar()) {
                throw e;
            }
            // A tar step failed (a file missing or unreadable, a server limit): send what is left
            // file by file, so the file at fault gets its own error and the files before it move.
            List<Integer> left = new ArrayList<>();
            for (TarBatchPlan.Step step : steps.subList(completedSteps[0], steps.size())) {
                left.addAll(step.files());
            }
            long[] leftSizes = new long[left.size()];
            for (int i = 0; i < left.size(); i++) {
                leftSizes[i] = sizes[left.get(i)];
            }
            List<FilePair> leftFiles = left.stream().map(files::get).toList();
            return moved[0]
                    + pipelineThirdParty(
                            dest,
                            options,
                            TarBatchPlan.steps(leftFiles, leftSizes, false),
                            leftFiles,
                            leftSizes,
                            pipelineDepth,
                            listener,
                            new int[1],
                            new long[1]);
        }
    }

    /**
     * Runs pipelined third-party steps over cached MODE E connections: up to {@code depth} steps in
     * flight, destination command first as globus-url-copy does (GridFTP pipelining (Bresnahan et al., TeraGrid 2007)).
     *
     * @param completedSteps [0] is set to the number of steps both sides finished, also on failure
     * @param moved [0] is set to the bytes of the files of those steps
     * @return bytes moved
     * @throws GridFtpReplyException for the first step a server refused (on a tie the permanent reply)
     */
    private long pipelineThirdParty(
            DefaultGridFtpSession dest,
            TransferOptions options,
            List<TarBatchPlan.Step> steps,
            List<FilePair> files,
            long[] sizes,
            int pipelineDepth,
            TransferListener listener,
            int[] completedSteps,
            long[] moved)
            throws IOException {
        dest.setMode(options.mode());
        setMode(options.mode());
        boolean reuse = new DataUse("send", dest).equals(dataUse) && new DataUse("receive", this).equals(dest.dataUse);
        InetSocketAddress destAddress = reuse ? null : dest.pasv();
        setRetrOptions(parallelism(options.parallelism()) + "markers=" + SOURCE_MARKER_SECONDS + ";");
        if (!reuse) {
            dropData();
            dataSetups++;
            expectOk(HostPort.portCommand(destAddress));
        }
        MarkerParser markers = new MarkerParser(listener);
        PipelinedReplies source = new PipelinedReplies(control, markers);
        PipelinedReplies sink = new PipelinedReplies(dest.control, markers);
        long lastSign = System.nanoTime();
        Wakeup wakeup = new Wakeup();
        StepCompletionGate gate = new StepCompletionGate();
        control.wakeup(wakeup, gate.source());
        dest.control.wakeup(wakeup, gate.sink());
        // refill when half the pipeline has drained: one wake-up and one write per side for
        // several files, while the other half keeps both servers busy
        int refillSteps = Math.max(1, pipelineDepth / 2);
        try {
            while (completedSteps[0] < steps.size()) {
                if (sink.sent() < steps.size() && sink.sent() - completedSteps[0] <= pipelineDepth - refillSteps) {
                    while (sink.sent() < steps.size() && sink.sent() - completedSteps[0] < pipelineDepth) {
                        TarBatchPlan.Step step = steps.get(sink.sent());
                        sink.queue(step.destinationCommand()); // the receiver first, as globus-url-copy
                        source.queue(step.sourceCommand());
                        tarSteps += step.isTar() ? 1 : 0;
                    }
                    sink.flush();
                    source.flush();
                }
                boolean heard = source.pollAll() | sink.pollAll();
                if (source.failure() != null || sink.failure() != null) {
                    // let the other side answer for the same step before choosing whose failure counts
                    int first = Math.min(source.failureIndex(), sink.failureIndex());
                    PipelinedReplies other = source.failure() != null ? sink : source;
                    if (other == sink) {
                        awaitFinals(sink, first, DRAIN_QUIET); // the steps before the failed one
                        if (!awaitFinals(sink, first + 1, SINK_ANSWER_WAIT) && sink.finals() == first) {
                            // The source refused the step before sending: with fresh data connections the
                            // destination would wait for data until its idle timeout. Only now is the step
                            // surely the one running there, so ABOR cannot hit an earlier file.
                            sink.abort();
                        }
                    }
                    awaitFinals(other, first + 1, DRAIN_QUIET);
                    // steps before the failed one that both sides finished are done: report them
                    int failed = Math.min(source.failureIndex(), sink.failureIndex());
                    report(
                            steps,
                            files,
                            sizes,
                            Math.min(failed, Math.min(source.finals(), sink.finals())),
                            listener,
                            completedSteps,
                            moved);
                    throw PipelinedReplies.firstFailure(source, sink);
                }
                report(steps, files, sizes, Math.min(source.finals(), sink.finals()), listener, completedSteps, moved);
                lastSign = heard ? System.nanoTime() : lastSign;
                if (System.nanoTime() - lastSign > control.replyTimeout().toNanos()) {
                    throw new SocketTimeoutException("pipelined third-party transfer: no reply or marker for "
                            + control.replyTimeout().toSeconds() + " s");
                }
                int wakeAt = Math.min(steps.size(), Math.min(sink.sent(), completedSteps[0] + refillSteps));
                if (!heard && !gate.wakeAt(wakeAt)) {
                    wakeup.await(POLL_MILLIS);
                }
            }
        } catch (IOException | RuntimeException e) {
            source.drain(DRAIN_QUIET);
            sink.drain(DRAIN_QUIET);
            dropData();
            dest.dropData();
            throw e;
        } finally {
            control.wakeup(null);
            dest.control.wakeup(null);
        }
        dataUse = new DataUse("send", dest);
        dest.dataUse = new DataUse("receive", this);
        return moved[0];
    }

    /**
     * Reads {@code replies} until it has {@code finals} final replies or a failure, at most {@code wait}
     * without a final reply.
     *
     * @return true if it got there
     */
    private static boolean awaitFinals(PipelinedReplies replies, int finals, Duration wait) throws IOException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (replies.finals() < finals && replies.failure() == null) {
            int before = replies.finals();
            if (System.nanoTime() > deadline) {
                return false;
            }
            replies.poll(20);
            if (replies.finals() > before) {
                deadline = System.nanoTime() + wait.toNanos();
            }
        }
        return replies.finals() >= finals;
    }

    /** Reports the files of the steps up to {@code upTo} (exclusive) as completed. */
    private static void report(
            List<TarBatchPlan.Step> steps,
            List<FilePair> files,
            long[] sizes,
            int upTo,
            TransferListener listener,
            int[] completedSteps,
            long[] moved) {
        while (completedSteps[0] < upTo) {
            for (int file : steps.get(completedSteps[0]++).files()) {
                listener.onFileCompleted(files.get(file), sizes[file]);
                moved[0] += sizes[file];
            }
        }
    }

    /**
     * @param feature a FEAT line's keyword, e.g. {@code TARSTREAM}
     * @return whether the server lists it; FEAT is asked once per session (RFC 2389)
     */
    boolean offers(String feature) throws IOException {
        if (features == null) {
            FtpReply feat = command("FEAT");
            List<String> lines = new ArrayList<>();
            if (feat.isPositiveCompletion()) {
                for (String line :
                        feat.lines().subList(1, Math.max(1, feat.lines().size() - 1))) {
                    lines.add(line.strip().toUpperCase(Locale.ROOT));
                }
            }
            features = List.copyOf(lines);
        }
        String wanted = feature.toUpperCase(Locale.ROOT);
        return features.stream().anyMatch(line -> line.equals(wanted) || line.startsWith(wanted + " "));
    }

    /**
     * The size of every source file: as the pair carries it, else by SIZE, pipelined (one round
     * trip): fails early on a missing file.
     */
    private long[] sizes(List<FilePair> files) throws IOException {
        long[] sizes = new long[files.size()];
        List<Integer> asked = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            sizes[i] = files.get(i).sizeBytes();
            if (sizes[i] < 0) {
                control.send("SIZE " + files.get(i).source());
                asked.add(i);
            }
        }
        IOException failure = null;
        for (int i : asked) {
            FtpReply reply = control.readFinal("SIZE " + files.get(i).source(), r -> {});
            if (failure != null) {
                continue; // read every reply, to stay in step
            }
            if (reply.code() == 550) {
                failure = new NoSuchFileException(files.get(i).source(), null, reply.text());
            } else if (!reply.isPositiveCompletion()) {
                failure = new GridFtpReplyException("SIZE " + files.get(i).source(), reply.code(), reply.text());
            } else {
                try {
                    sizes[i] = Long.parseLong(reply.firstLineText().trim());
                } catch (NumberFormatException e) {
                    failure = new IOException("bad SIZE reply: " + reply, e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
        return sizes;
    }

    @Override
    public long uploadAll(List<FilePair> files, TransferOptions options, int pipelineDepth, TransferListener listener)
            throws IOException {
        GridFtpSession.checkDepth(pipelineDepth);
        if (options.mode() == TransferOptions.Mode.STREAM || files.isEmpty()) {
            return GridFtpSession.super.uploadAll(files, options, pipelineDepth, listener);
        }
        protect(options);
        setMode(options.mode());
        if (!DataUse.UPLOAD.equals(dataUse) || uploadAddress == null) {
            uploadAddress = pasv();
        }
        return pipelineTwoParty(
                files,
                "STOR ",
                FilePair::destination,
                pipelineDepth,
                listener,
                (file, progress) -> {
                    FileChannel in = FileChannel.open(Path.of(file.source()), StandardOpenOption.READ);
                    return new LocalTransfer(
                            in,
                            data.send(
                                    DataSource.ofWholeFile(in),
                                    new DataEndpoint.Active(uploadAddress),
                                    true,
                                    options.parallelism(),
                                    progress,
                                    dataCache));
                },
                DataUse.UPLOAD);
    }

    @Override
    public long downloadAll(List<FilePair> files, TransferOptions options, int pipelineDepth, TransferListener listener)
            throws IOException {
        GridFtpSession.checkDepth(pipelineDepth);
        if (options.mode() == TransferOptions.Mode.STREAM || files.isEmpty()) {
            return GridFtpSession.super.downloadAll(files, options, pipelineDepth, listener);
        }
        protect(options);
        setMode(options.mode());
        setRetrOptions(parallelism(options.parallelism()));
        if (!DataUse.DOWNLOAD.equals(dataUse) || downloadListener == null) {
            dropData();
            downloadListener = data.listen(control.localAddress().getAddress());
            dataSetups++;
            expectOk(HostPort.portCommand(downloadListener.address()));
        }
        PassiveListener passive = downloadListener;
        return pipelineTwoParty(
                files,
                "RETR ",
                FilePair::source,
                pipelineDepth,
                listener,
                (file, progress) -> {
                    FileChannel out = FileChannel.open(
                            Path.of(file.destination()),
                            StandardOpenOption.CREATE,
                            StandardOpenOption.WRITE,
                            StandardOpenOption.TRUNCATE_EXISTING);
                    return new LocalTransfer(
                            out,
                            data.receive(
                                    DataSink.toFile(out, 0),
                                    new DataEndpoint.Passive(passive),
                                    true,
                                    progress,
                                    dataCache));
                },
                DataUse.DOWNLOAD);
    }

    /** The local end of one file of a two-party batch: its open file and its data transfer. */
    private record LocalTransfer(FileChannel file, CompletableFuture<Long> data) {}

    /** Starts the local data side of one file of a two-party batch. */
    private interface LocalStarter {
        LocalTransfer start(FilePair file, LongConsumer progress) throws IOException;
    }

    /**
     * Runs a two-party MODE E batch: transfer commands go out up to {@code depth} files ahead of the
     * final replies; the data of one file at a time moves over the cached connections (a file's data
     * starts once the previous file's data is done on our side and its command is sent; the
     * server holds early blocks until the command is processed).
     */
    private long pipelineTwoParty(
            List<FilePair> files,
            String verb,
            java.util.function.Function<FilePair, String> remote,
            int depth,
            TransferListener listener,
            LocalStarter starter,
            DataUse use)
            throws IOException {
        PipelinedReplies replies = new PipelinedReplies(control, new MarkerParser(listener));
        long[] bytes = new long[files.size()];
        int started = 0;
        int done = 0;
        long total = 0;
        LocalTransfer current = null;
        long lastSign = System.nanoTime();
        long lastMoved = 0;
        AtomicLong moved = new AtomicLong();
        Wakeup wakeup = new Wakeup();
        control.wakeup(wakeup);
        try {
            while (done < files.size()) {
                while (replies.sent() < files.size() && replies.sent() - done < depth) {
                    replies.send(verb + remote.apply(files.get(replies.sent())));
                }
                if (current != null && current.data().isDone()) {
                    bytes[started - 1] = finishLocal(verb, current);
                    current = null;
                }
                if (current == null && started < files.size() && started < replies.sent()) {
                    current = starter.start(files.get(started++), progress(moved, listener));
                    current.data().whenComplete((b, e) -> wakeup.signal());
                }
                boolean heard = replies.pollAll();
                if (replies.failure() != null) {
                    throw replies.failure();
                }
                while (done < replies.finals() && done < started - (current == null ? 0 : 1)) {
                    listener.onFileCompleted(files.get(done), bytes[done]);
                    total += bytes[done++];
                }
                if (heard || moved.get() != lastMoved) {
                    lastMoved = moved.get();
                    lastSign = System.nanoTime();
                } else if (System.nanoTime() - lastSign > control.replyTimeout().toNanos()) {
                    throw new SocketTimeoutException("pipelined " + verb.trim() + ": no reply and no data for "
                            + control.replyTimeout().toSeconds() + " s");
                }
                if (!heard && (current == null || !current.data().isDone())) {
                    wakeup.await(POLL_MILLIS);
                }
            }
        } catch (IOException | RuntimeException e) {
            if (current != null) {
                current.data().cancel(false);
                closeQuietly(current.file());
            }
            replies.drain(DRAIN_QUIET);
            dropData();
            throw e;
        } finally {
            control.wakeup(null);
        }
        dataUse = use;
        return total;
    }

    /** Waits for one file's local data side (it has normally finished), closes its file, @return bytes. */
    private long finishLocal(String verb, LocalTransfer transfer) throws IOException {
        try (FileChannel file = transfer.file()) {
            return awaitData(verb.trim(), transfer.data());
        }
    }

    private static void closeQuietly(FileChannel file) {
        try {
            file.close();
        } catch (IOException e) {
            // the batch already failed; this adds nothing
        }
    }

    // ---- shared helpers ----

    /** Sends DCAU/PBSZ/PROT as {@code options} need and secures our data channels accordingly. */
    private void protect(TransferOptions options) throws IOException {
        DataChannels next = protection.apply(options, this::expectOk);
        if (next != data) {
            dropData(); // DCAU/PROT changed: the server dropped its cached connections, and so do we
        }
        data = next;
    }

    /** Sends MODE only when it differs from what this session last set. */
    private void setMode(TransferOptions.Mode wanted) throws IOException {
        if (wanted != mode) {
            dropData(); // the server drops cached connections on a MODE change
            expectOk(wanted == TransferOptions.Mode.EXTENDED_BLOCK ? "MODE E" : "MODE S");
            mode = wanted;
        }
    }

    private static String parallelism(int n) {
        return "Parallelism=" + n + "," + n + "," + n + ";";
    }

    /**
     * Sends {@code OPTS RETR <options>} (GFD.020 "Options to RETR": each option ends with ';'; the
     * three parallelism numbers are start, minimum, maximum) only when the options differ from what
     * this session last set. The whole option string is always sent, so the outcome does not depend
     * on whether the server keeps options a later OPTS RETR leaves out.
     */
    private void setRetrOptions(String options) throws IOException {
        if (!options.equals(retrOptions)) {
            expectOk("OPTS RETR " + options);
            retrOptions = options;
        }
    }

    /** PASV (RFC 959 section 4.1.2) and the 227 address; 0.0.0.0 means the control connection's host. */
    private InetSocketAddress pasv() throws IOException {
        dropData(); // a new PASV destroys the server's cached data connections
        dataSetups++;
        FtpReply reply = expectOk("PASV");
        InetSocketAddress address = pasvAddress(reply.text());
        if (address.getAddress().isAnyLocalAddress()) {
            address = new InetSocketAddress(control.remoteAddress().getAddress(), address.getPort());
        }
        return address;
    }

    /**
     * Sends ABOR and drains the replies, ignoring failures: RFC 959 expects 426 for the transfer
     * and then 226 for ABOR, but a transfer that had just finished gives its 226 and then ABOR's,
     * and globus-gridftp-server sometimes closes the control connection instead (seen with ABOR
     * during a third-party RETR), so after an abort the session may be unusable.
     */
    static void abort(ControlChannel channel) {
        try {
            channel.send("ABOR");
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ABORT_WAIT_MILLIS);
            int finals = 0;
            while (finals < 2 && System.nanoTime() < deadline) {
                FtpReply reply = channel.poll(POLL_MILLIS);
                if (reply != null && !reply.isPreliminary() && finals++ == 0) {
                    // a second final reply may follow soon; do not leave it to desynchronise the next command
                    deadline = Math.min(deadline, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1_000));
                }
            }
        } catch (IOException e) {
            // the connection is broken already: nothing to abort
        }
    }

    private FtpReply command(String command) throws IOException {
        return command(command, command);
    }

    private FtpReply command(String command, String forMessages) throws IOException {
        control.send(command);
        return control.readFinal(forMessages, r -> {});
    }

    private FtpReply expectOk(String command) throws IOException {
        FtpReply reply = command(command);
        checkOk(command, reply);
        return reply;
    }

    private static void checkOk(String command, FtpReply reply) throws GridFtpReplyException {
        if (!reply.isPositiveCompletion()) {
            throw new GridFtpReplyException(command, reply.code(), reply.text());
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        dropData();
        try {
            control.send("QUIT");
            control.poll(1_000);
        } catch (IOException e) {
            // already broken: closing is all that is left
        } finally {
            control.close();
        }
    }

    /** The address in a 227 reply or a SPAS reply line (RFC 959 section 4.1.2). */
    private static InetSocketAddress pasvAddress(String replyText) throws IOException {
        try {
            return HostPort.find(replyText);
        } catch (IllegalArgumentException e) {
            throw new IOException("bad passive address from the server: " + e.getMessage(), e);
        }
    }
}
