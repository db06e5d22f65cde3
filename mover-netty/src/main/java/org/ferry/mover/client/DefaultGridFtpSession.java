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
import org.ferry.mover.data.PassiveListener;
import org.ferry.mover.protocol.FileInfo;

/**
 * The {@link GridFtpSession} of {@link GridFtpClient}: drives one control channel with blocking
 * command/reply exchanges and moves data with {@link DataChannels}. Command sequences follow
 * globus-url-copy (gridftp-protocol.md sections 3.1-3.4): MODE and {@code OPTS RETR} are sent only
 * when they differ from what this session last set; MODE E downloads use PORT (the sending server
 * connects), MODE E uploads PASV (we connect).
 */
final class DefaultGridFtpSession implements GridFtpSession {

    /** How long to wait for the replies to ABOR before giving up on them. */
    private static final long ABORT_WAIT_MILLIS = 5_000;
    private static final long POLL_MILLIS = 100;
    /** Period of the performance markers asked of a third-party source. */
    private static final int SOURCE_MARKER_SECONDS = 5;

    private final GridFtpUrl url;
    private final ControlChannel control;
    private final DataChannels data;
    private TransferOptions.Mode mode = TransferOptions.Mode.STREAM; // RFC 959 default
    private String retrOptions = ""; // the OPTS RETR options last set; "" = never set by us
    private boolean closed;

    private DefaultGridFtpSession(GridFtpUrl url, ControlChannel control, DataChannels data) {
        this.url = url.withPath("/");
        this.control = control;
        this.data = data;
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
     * {@code AUTH GSSAPI}/{@code ADAT} when {@code security} is given (RFC 2228, gridftp-protocol.md
     * 4.1), then protecting the channel and logging in as {@code :globus-mapping:} (the grid-mapfile
     * decides the account) unless the URL names a user.
     *
     * @throws GridFtpReplyException on a refused AUTH/ADAT/login
     * @throws IOException if the connection fails
     */
    static DefaultGridFtpSession login(GridFtpUrl url, ControlChannel control, DataChannels data,
            org.ferry.gsi.context.SecurityContext security) throws IOException {
        DefaultGridFtpSession session = new DefaultGridFtpSession(url, control, data);
        try {
            FtpReply banner = control.readFinal("connect", r -> { });
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
            if (security != null) {
                // Ferry's data channels are not GSI-authenticated yet; globus-gridftp-server defaults to
                // DCAU A after GSI login, so ask for none (gridftp-protocol.md 7b). A server without DCAU
                // (5xx) is fine: its data channels are clear anyway.
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
                byte[] in = text.startsWith("ADAT=") ? java.util.Base64.getDecoder().decode(text.substring(5).strip()) : null;
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
    public long sendStriped(String sourcePath, GridFtpSession destination, String destinationPath, int parallelism,
            int blockSizeBytes, TransferListener listener) throws IOException {
        if (!(destination instanceof DefaultGridFtpSession dest)) {
            throw new IllegalArgumentException("destination must be a session of GridFtpClient");
        }
        if (parallelism < 1 || parallelism > 64 || blockSizeBytes < 1 || blockSizeBytes > (64 << 20)) {
            throw new IllegalArgumentException("parallelism 1..64 and block size 1..64 MiB, were " + parallelism
                    + " and " + blockSizeBytes);
        }
        long size = size(sourcePath); // fails early with NoSuchFileException
        // gridftp-protocol.md 3.3 with -stripe: destination first (MODE E, SPAS, STOR), then the
        // source (MODE E, OPTS RETR with the layout, SPOR, RETR)
        dest.setMode(TransferOptions.Mode.EXTENDED_BLOCK);
        List<InetSocketAddress> stripes = dest.spas();
        String storCommand = "STOR " + destinationPath;
        dest.control.send(storCommand);
        String retrCommand = "RETR " + sourcePath;
        try {
            setMode(TransferOptions.Mode.EXTENDED_BLOCK);
            setRetrOptions(parallelism(parallelism) + "StripeLayout=Blocked;BlockSize=" + blockSizeBytes
                    + ";markers=" + SOURCE_MARKER_SECONDS + ";");
            StringBuilder spor = new StringBuilder("SPOR");
            for (InetSocketAddress stripe : stripes) {
                spor.append(' ').append(HostPort.portArgument(stripe));
            }
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
     * SPAS (gridftp-protocol.md section 2.4): {@code 229-Entering Striped Passive Mode.}, one
     * {@code h1,h2,h3,h4,p1,p2} line per stripe, {@code 229 End}; 0.0.0.0 means the control
     * connection's host.
     */
    private List<InetSocketAddress> spas() throws IOException {
        FtpReply reply = expectOk("SPAS");
        List<InetSocketAddress> stripes = new java.util.ArrayList<>();
        for (String line : reply.lines().subList(1, reply.lines().size())) {
            if (line.matches(".*\\d+,\\d+,\\d+,\\d+,\\d+,\\d+.*")) {
                InetSocketAddress address = HostPort.parsePasv(line);
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
    public String checksum(String algorithm, String path) throws IOException {
        // GridFTP CKSM <algorithm> <offset> <length> <path>; length -1 = to the end (gridftp-protocol.md 2.9)
        FtpReply reply = expectOk("CKSM " + algorithm.toUpperCase(Locale.ROOT) + " 0 -1 " + path);
        return reply.firstLineText().trim().toLowerCase(Locale.ROOT);
    }

    // ---- two-party transfers ----

    @Override
    public long download(String remotePath, Path localFile, TransferOptions options, TransferListener listener)
            throws IOException {
        AtomicLong moved = new AtomicLong();
        LongConsumer progress = progress(moved, listener);
        try (FileChannel out = FileChannel.open(localFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            DataSink sink = DataSink.toFile(out, 0);
            String command = "RETR " + remotePath;
            if (options.mode() == TransferOptions.Mode.STREAM) {
                setMode(TransferOptions.Mode.STREAM);
                InetSocketAddress address = pasv();
                CompletableFuture<Long> received = data.receive(sink, new DataEndpoint.Active(address), false, progress);
                return finishTransfer(command, received, moved, listener);
            }
            setMode(TransferOptions.Mode.EXTENDED_BLOCK);
            setRetrOptions(parallelism(options.parallelism()));
            // MODE E: the sending server connects, so we listen and send PORT (gridftp-protocol.md 2.2)
            try (PassiveListener passive = data.listen(control.localAddress().getAddress())) {
                expectOk(HostPort.portCommand(passive.address()));
                CompletableFuture<Long> received = data.receive(sink, new DataEndpoint.Passive(passive), true, progress);
                return finishTransfer(command, received, moved, listener);
            }
        }
    }

    @Override
    public long upload(Path localFile, String remotePath, TransferOptions options, TransferListener listener)
            throws IOException {
        AtomicLong moved = new AtomicLong();
        try (FileChannel in = FileChannel.open(localFile, StandardOpenOption.READ)) {
            setMode(options.mode());
            InetSocketAddress address = pasv(); // both modes: we send, so we connect
            boolean modeE = options.mode() == TransferOptions.Mode.EXTENDED_BLOCK;
            CompletableFuture<Long> sent = data.send(DataSource.ofWholeFile(in), new DataEndpoint.Active(address),
                    modeE, options.parallelism(), progress(moved, listener));
            return finishTransfer("STOR " + remotePath, sent, moved, listener);
        }
    }

    private static LongConsumer progress(AtomicLong moved, TransferListener listener) {
        return n -> {
            moved.set(n);
            listener.onProgress(n);
        };
    }

    /** Sends the transfer command, waits for its final reply and the data connections, and checks both. */
    private long finishTransfer(String command, CompletableFuture<Long> transfer, AtomicLong moved,
            TransferListener listener) throws IOException {
        FtpReply reply = awaitTransfer(command, transfer, moved, new MarkerParser(listener));
        checkOk(command, reply);
        return awaitData(command, transfer);
    }

    /**
     * Sends {@code command} and waits for its final reply while data moves. The reply timeout
     * counts from the last sign of life: a reply, a marker, or data progress. If the data
     * connections fail first, sends ABOR and throws their error.
     */
    private FtpReply awaitTransfer(String command, CompletableFuture<Long> transfer, AtomicLong moved,
            MarkerParser markers) throws IOException {
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

    /** Waits for the data side after a positive final reply; it normally has already finished. */
    private long awaitData(String command, CompletableFuture<Long> transfer) throws IOException {
        try {
            return transfer.get(control.replyTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof IOException io ? new IOException(command + ": data channel failed: "
                    + io.getMessage(), io) : new IOException(command + ": data channel failed", cause);
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
    public long sendTo(String sourcePath, GridFtpSession destination, String destinationPath, TransferOptions options,
            TransferListener listener) throws IOException {
        if (!(destination instanceof DefaultGridFtpSession dest)) {
            throw new IllegalArgumentException("destination must be a session of GridFtpClient");
        }
        long size = size(sourcePath); // fails early with NoSuchFileException
        // gridftp-protocol.md 3.3/3.4: destination first (MODE, PASV, STOR), then source (MODE, OPTS, PORT, RETR)
        dest.setMode(options.mode());
        InetSocketAddress destAddress = dest.pasv();
        String storCommand = "STOR " + destinationPath;
        dest.control.send(storCommand);
        String retrCommand = "RETR " + sourcePath;
        try {
            setMode(options.mode());
            // markers: the sending server then reports progress (112) even in stream mode, which
            // keeps the inactivity timeout from firing during long third-party transfers
            int streams = options.mode() == TransferOptions.Mode.EXTENDED_BLOCK ? options.parallelism() : 1;
            setRetrOptions(parallelism(streams) + "markers=" + SOURCE_MARKER_SECONDS + ";");
            expectOk(HostPort.portCommand(destAddress));
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

    // ---- shared helpers ----

    /** Sends MODE only when it differs from what this session last set. */
    private void setMode(TransferOptions.Mode wanted) throws IOException {
        if (wanted != mode) {
            expectOk(wanted == TransferOptions.Mode.EXTENDED_BLOCK ? "MODE E" : "MODE S");
            mode = wanted;
        }
    }

    private static String parallelism(int n) {
        return "Parallelism=" + n + "," + n + "," + n + ";";
    }

    /**
     * Sends {@code OPTS RETR <options>} (gridftp-protocol.md 2.3: each option ends with ';'; the
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
        FtpReply reply = expectOk("PASV");
        InetSocketAddress address = HostPort.parsePasv(reply.text());
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
        return control.readFinal(forMessages, r -> { });
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
        try {
            control.send("QUIT");
            control.poll(1_000);
        } catch (IOException e) {
            // already broken: closing is all that is left
        } finally {
            control.close();
        }
    }
}
