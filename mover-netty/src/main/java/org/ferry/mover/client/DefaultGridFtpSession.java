package org.ferry.mover.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.ferry.gsi.context.SecurityContext;
import org.ferry.mover.data.DataChannels;
import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.data.DataSink;
import org.ferry.mover.data.DataSource;
import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.mover.protocol.ByteRange;
import org.ferry.mover.protocol.ClientCommands;
import org.ferry.mover.protocol.DialOut;
import org.ferry.mover.protocol.FileInfo;
import org.ferry.mover.protocol.FtpReply;

/**
 * The {@link GridFtpSession} of {@link GridFtpClient}: one control channel with blocking
 * command/reply exchanges. Its state is one {@link SessionControl}; simple commands are answered
 * here, transfers are one class each ({@link TwoPartyTransfer}, {@link ThirdPartyTransfer},
 * {@link StripedTransfer}, {@link PipelinedTwoParty}, {@link PipelinedThirdParty}), all waiting
 * through {@link ReplyWaiter}. Not thread-safe: one caller at a time.
 */
final class DefaultGridFtpSession implements GridFtpSession {

    private final SessionControl session;
    private boolean closed;
    /** The period last set with TREV PERF (it holds for the rest of the session), 0 for none. */
    private int perfMarkerSeconds;

    private DefaultGridFtpSession(SessionControl session) {
        this.session = session;
    }

    /**
     * Reads the banner and logs in (RFC 959 section 4.1.1: USER, 331, PASS, 230), then TYPE I.
     *
     * @throws GridFtpReplyException on a refused login (530) or banner other than 220
     * @throws IOException if the connection fails
     */
    static DefaultGridFtpSession login(GridFtpUrl url, ControlChannel control, DataChannels data) throws IOException {
        return login(url, control, data, null, null);
    }

    /**
     * As {@link #login(GridFtpUrl, ControlChannel, DataChannels)}, first authenticating with
     * {@code AUTH GSSAPI}/{@code ADAT} when {@code security} is given (RFC 2228 section 3 with the
     * GSI mechanism), logging in as {@code :globus-mapping:} unless the URL names a user; with
     * {@code gsi} data channels are authenticated too (DCAU A when the server's FEAT lists DCAU).
     *
     * @param security the GSI context, or null for a clear-text login
     * @param gsi the credential and trust behind {@code security}, or null to send {@code DCAU N}
     * @throws GridFtpReplyException on a refused AUTH/ADAT/login
     * @throws IOException if the connection fails
     */
    static DefaultGridFtpSession login(
            GridFtpUrl url, ControlChannel control, DataChannels data, SecurityContext security, GsiClientSecurity gsi)
            throws IOException {
        return new DefaultGridFtpSession(SessionLogin.login(url, control, data, security, gsi));
    }

    /**
     * The control state of another session of this client, for operations between two servers.
     *
     * @throws IllegalArgumentException if {@code other} is not a session of {@link GridFtpClient}
     */
    private static SessionControl controlOf(GridFtpSession other) {
        if (other instanceof DefaultGridFtpSession peer) {
            return peer.session;
        }
        throw new IllegalArgumentException("destination must be a session of GridFtpClient");
    }

    @Override
    public GridFtpUrl url() {
        return session.url();
    }

    @Override
    public void requireDataProtection(ProtectionLevel level) throws IOException {
        session.requireProtection(level);
    }

    // ---- simple commands ----

    @Override
    public List<FileInfo> list(String directory) throws IOException {
        DataSink.MemorySink sink = DataSink.toMemory();
        session.protect(TransferOptions.STREAM);
        session.setMode(TransferOptions.Mode.STREAM); // listings come in stream mode over PASV
        InetSocketAddress address = session.pasv();
        CompletableFuture<Long> received = session.data().receive(sink, new DataEndpoint.Active(address), false, null);
        String command = ClientCommands.mlsd(directory);
        TransferWait wait = new TransferWait(session.channel());
        FtpReply reply = wait.awaitReply(command, received, new AtomicLong(), new MarkerParser(TransferListener.NONE));
        if (reply.code() == 550) {
            throw new NoSuchFileException(directory, null, reply.text());
        }
        SessionControl.checkOk(command, reply);
        wait.awaitData(command, received);
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
    public long[] sizes(List<String> paths) throws IOException {
        return session.sizes(paths);
    }

    @Override
    public GridFtpReplyException[] setModifiedTimes(List<String> paths, List<Instant> times) throws IOException {
        return session.setModifiedTimes(paths, times);
    }

    @Override
    public boolean supportsExtendedBlockMode() throws IOException {
        return session.speaksExtendedBlockMode();
    }

    @Override
    public boolean dialsOut() throws IOException {
        return session.offers(DialOut.FEATURE);
    }

    @Override
    public FileInfo stat(String path) throws IOException {
        String command = ClientCommands.mlst(path);
        FtpReply reply = session.command(command);
        if (reply.code() == 550) {
            throw new NoSuchFileException(path, null, reply.text());
        }
        SessionControl.checkOk(command, reply);
        // RFC 3659 section 7.2: the entry is the reply line starting with a space
        for (String line : reply.lines().subList(1, reply.lines().size())) {
            if (line.startsWith(" ")) {
                FileInfo entry = MlsxParser.parse(line.substring(1));
                return entry.withName(path);
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
        return session.size(path);
    }

    @Override
    public void makeDirectory(String path) throws IOException {
        session.expectOk(ClientCommands.mkd(path));
    }

    @Override
    public void delete(String path) throws IOException {
        session.expectOk(ClientCommands.dele(path));
    }

    @Override
    public void removeDirectory(String path) throws IOException {
        session.expectOk(ClientCommands.rmd(path));
    }

    @Override
    public void rename(String from, String to) throws IOException {
        String command = ClientCommands.rnfr(from);
        FtpReply reply = session.command(command);
        if (reply.code() != 350) { // RFC 959: RNFR answers 350 before RNTO
            throw new GridFtpReplyException(command, reply.code(), reply.text());
        }
        session.expectOk(ClientCommands.rnto(to));
    }

    @Override
    public void restartMarkerInterval(int seconds) throws IOException {
        session.expectOk(ClientCommands.trevRestart(seconds));
    }

    @Override
    public void perfMarkerInterval(int seconds) throws IOException {
        if (seconds == perfMarkerSeconds) {
            return; // already set on this session: a reused session needs no round trip
        }
        session.expectOk(ClientCommands.trevPerf(seconds));
        perfMarkerSeconds = seconds;
    }

    @Override
    public String checksum(String algorithm, String path) throws IOException {
        // GridFTP CKSM <algorithm> <offset> <length> <path>; length -1 = to the end (GFD.047 "CKSM")
        FtpReply reply = session.expectOk(ClientCommands.cksm(algorithm, path));
        return reply.firstLineText().trim().toLowerCase(Locale.ROOT);
    }

    @Override
    public boolean offers(String feature) throws IOException {
        return session.offers(feature);
    }

    @Override
    public boolean offersChecksum(String algorithm) throws IOException {
        return session.offersChecksum(algorithm);
    }

    @Override
    public boolean isOpen() {
        return !closed && session.channel().isActive();
    }

    @Override
    public void setDiskStack(String stack) throws IOException {
        session.expectOk("SITE SETDISKSTACK " + stack);
    }

    @Override
    public void changeMode(String path, int mode) throws IOException {
        session.expectOk(ClientCommands.siteChmod(mode, path));
    }

    // ---- two-party transfers ----

    @Override
    public long download(String remotePath, Path localFile, TransferOptions options, TransferListener listener)
            throws IOException {
        return new TwoPartyTransfer(session).download(remotePath, localFile, options, listener, -1, -1);
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
        return new TwoPartyTransfer(session).download(remotePath, localFile, options, listener, offset, length);
    }

    @Override
    public long downloadPart(
            String remotePath,
            long offset,
            long length,
            DataSink sink,
            TransferOptions options,
            TransferListener listener)
            throws IOException {
        checkWindow(offset, length);
        return new TwoPartyTransfer(session).receive(remotePath, sink, options, listener, offset, length);
    }

    @Override
    public long upload(
            DataSource source, String remotePath, long offset, TransferOptions options, TransferListener listener)
            throws IOException {
        return new TwoPartyTransfer(session).send(source, remotePath, options, listener, offset < 0 ? -1 : offset);
    }

    @Override
    public long upload(Path localFile, String remotePath, TransferOptions options, TransferListener listener)
            throws IOException {
        return new TwoPartyTransfer(session).upload(localFile, remotePath, options, listener, -1, -1);
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
        return new TwoPartyTransfer(session).upload(localFile, remotePath, options, listener, offset, length);
    }

    @Override
    public long uploadAll(List<FilePair> files, TransferOptions options, int pipelineDepth, TransferListener listener)
            throws IOException {
        checkDepth(pipelineDepth);
        if (options.mode() == TransferOptions.Mode.STREAM || files.isEmpty()) {
            long total = 0; // stream mode: a data connection per file, one file at a time
            for (FilePair file : files) {
                long bytes = upload(Path.of(file.source()), file.destination(), options, listener);
                listener.onFileCompleted(file, bytes);
                total += bytes;
            }
            return total;
        }
        return new PipelinedTwoParty(session).upload(files, options, pipelineDepth, listener);
    }

    @Override
    public long downloadAll(List<FilePair> files, TransferOptions options, int pipelineDepth, TransferListener listener)
            throws IOException {
        checkDepth(pipelineDepth);
        if (options.mode() == TransferOptions.Mode.STREAM || files.isEmpty()) {
            long total = 0; // stream mode: a data connection per file, one file at a time
            for (FilePair file : files) {
                long bytes = download(file.source(), Path.of(file.destination()), options, listener);
                listener.onFileCompleted(file, bytes);
                total += bytes;
            }
            return total;
        }
        return new PipelinedTwoParty(session).download(files, options, pipelineDepth, listener);
    }

    // ---- third-party transfers ----

    @Override
    public long sendTo(
            String sourcePath,
            GridFtpSession destination,
            String destinationPath,
            TransferOptions options,
            TransferListener listener)
            throws IOException {
        return new ThirdPartyTransfer(session, controlOf(destination))
                .run(sourcePath, destinationPath, options, List.of(), listener, -1, -1);
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
        return new ThirdPartyTransfer(session, controlOf(destination))
                .run(sourcePath, destinationPath, options, done, listener, -1, -1);
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
        return new ThirdPartyTransfer(session, controlOf(destination))
                .run(sourcePath, destinationPath, options, List.of(), listener, offset, length);
    }

    @Override
    public long sendAll(
            List<FilePair> files,
            GridFtpSession destination,
            TransferOptions options,
            int pipelineDepth,
            TransferListener listener)
            throws IOException {
        checkDepth(pipelineDepth);
        SessionControl peer = controlOf(destination);
        if (options.mode() == TransferOptions.Mode.STREAM || files.isEmpty()) {
            long total = 0; // stream mode: a PASV/PORT per file, one file at a time
            for (FilePair file : files) {
                total += sendOne(file, destination, options, listener);
            }
            return total;
        }
        return new PipelinedThirdParty(session, peer).run(files, options, pipelineDepth, listener);
    }

    /** One file of a stream-mode batch: reported unfinished when it fails after the destination opened it. */
    private long sendOne(FilePair file, GridFtpSession destination, TransferOptions options, TransferListener listener)
            throws IOException {
        AtomicBoolean opened = new AtomicBoolean();
        TransferListener watching = new TransferListener() {
            @Override
            public void onProgress(long bytesTransferred) {
                listener.onProgress(bytesTransferred);
            }

            @Override
            public void onRestartMarker(String ranges) {
                listener.onRestartMarker(ranges);
            }

            @Override
            public void onReceiveStarted() {
                opened.set(true);
                listener.onReceiveStarted();
            }
        };
        long bytes;
        try {
            bytes = sendTo(file.source(), destination, file.destination(), options, watching);
        } catch (IOException | RuntimeException e) {
            // a refusal before 125/150 left the destination as it was; a broken session may not have
            if (opened.get() || !(e instanceof GridFtpReplyException)) {
                listener.onFileUnfinished(file, true);
            }
            throw e;
        }
        listener.onFileCompleted(file, bytes);
        return bytes;
    }

    @Override
    public long sendStriped(
            String sourcePath,
            GridFtpSession destination,
            String destinationPath,
            int parallelism,
            int blockSizeBytes,
            TransferListener listener)
            throws IOException {
        SessionControl peer = controlOf(destination);
        if (session.protectionFloor() != ProtectionLevel.CLEAR || peer.protectionFloor() != ProtectionLevel.CLEAR) {
            throw new IOException("striped transfers do not protect data channels; this session must (PROT "
                    + session.protectionFloor().code() + ")");
        }
        return new StripedTransfer(session, peer)
                .run(sourcePath, destinationPath, parallelism, blockSizeBytes, listener);
    }

    private static void checkWindow(long offset, long length) {
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("offset and length must be >= 0, were " + offset + ", " + length);
        }
    }

    // ---- for tests ----

    /**
     * Drops the control connection without QUIT, as a crashed client would: the server aborts
     * what this session was doing (tests of restart after a fault).
     */
    void abandon() {
        closed = true;
        session.dropData();
        session.channel().close();
    }

    /** @return how many PASV, PORT and SPOR commands this session sent (tests of MODE E connection reuse) */
    int dataSetups() {
        return session.dataSetups();
    }

    /** @return how many ERET TAR steps this session sent as a third-party source (tests of the TAR module) */
    int tarSteps() {
        return session.tarSteps();
    }

    /**
     * @param pipelineDepth a pipelining depth
     * @throws IllegalArgumentException if outside 1..1000
     */
    private static void checkDepth(int pipelineDepth) {
        if (pipelineDepth < 1 || pipelineDepth > 1000) {
            throw new IllegalArgumentException("pipeline depth must be 1..1000, was " + pipelineDepth);
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        session.dropData();
        ControlChannel control = session.channel();
        if (!control.isActive()) {
            control.close(); // the server closed it (idle timeout, restart): no QUIT to send
            return;
        }
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
