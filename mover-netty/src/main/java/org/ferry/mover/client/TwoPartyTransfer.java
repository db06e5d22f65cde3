package org.ferry.mover.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.data.DataSink;
import org.ferry.mover.data.DataSource;
import org.ferry.mover.protocol.ClientCommands;

/**
 * One file between this client and a server (RFC 959 section 5.2): download with RETR or, for a
 * window, ERET P (GFD.020 "ERET"); upload with STOR or ESTO A. Stream mode uses PASV (we connect);
 * in MODE E (GFD.020 "Extended Block Mode") the sender connects, so downloads listen and send PORT,
 * uploads use PASV, and the connections stay cached for the next transfer of the same kind.
 */
final class TwoPartyTransfer {

    private final SessionControl session;

    /** @param session the session the transfer runs on */
    TwoPartyTransfer(SessionControl session) {
        this.session = session;
    }

    /**
     * RETR, or with {@code offset >= 0} ERET P into that window of the local file (not truncated).
     *
     * @param offset first byte of the window, or -1 for the whole file (truncates the local file)
     * @param length bytes of the window; ignored for the whole file
     * @return bytes received
     * @throws GridFtpReplyException if the server refuses or fails the transfer
     * @throws IOException on a local file error, a failed data channel or a timeout
     */
    long download(
            String remotePath,
            Path localFile,
            TransferOptions options,
            TransferListener listener,
            long offset,
            long length)
            throws IOException {
        session.protect(options);
        boolean partial = offset >= 0;
        try (FileChannel out = partial
                ? FileChannel.open(localFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)
                : FileChannel.open(
                        localFile,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
            return receive(remotePath, DataSink.toFile(out, partial ? offset : 0), options, listener, offset, length);
        }
    }

    /**
     * RETR, or with {@code offset >= 0} ERET P, into {@code sink}: its offsets count from the first
     * byte of the file or of the window (GFD.020 "ERET": the window is sent as a file of its own).
     *
     * @param offset first byte of the window, or -1 for the whole file
     * @param length bytes of the window; ignored for the whole file
     * @return bytes received
     * @throws GridFtpReplyException if the server refuses or fails the transfer
     * @throws IOException on a sink error, a failed data channel or a timeout
     */
    long receive(
            String remotePath,
            DataSink sink,
            TransferOptions options,
            TransferListener listener,
            long offset,
            long length)
            throws IOException {
        AtomicLong moved = new AtomicLong();
        LongConsumer progress = progress(moved, listener);
        session.protect(options);
        String command =
                offset >= 0 ? ClientCommands.eretPartial(offset, length, remotePath) : ClientCommands.retr(remotePath);
        TransferWait wait = new TransferWait(session.channel());
        if (options.mode() == TransferOptions.Mode.STREAM) {
            session.setMode(TransferOptions.Mode.STREAM);
            InetSocketAddress address = session.pasv();
            CompletableFuture<Long> received =
                    session.data().receive(sink, new DataEndpoint.Active(address), false, progress);
            return wait.finish(command, received, moved, listener);
        }
        session.setMode(TransferOptions.Mode.EXTENDED_BLOCK);
        session.setRetrOptions(SessionControl.parallelism(options.parallelism()));
        DataEndpoint.Passive endpoint = new DataEndpoint.Passive(session.downloadListener());
        CompletableFuture<Long> received = session.data().receive(sink, endpoint, true, progress, session.dataCache());
        return cached(DataUse.DOWNLOAD, () -> wait.finish(command, received, moved, listener));
    }

    /**
     * STOR, or with {@code offset >= 0} ESTO A of that window of the local file.
     *
     * @param offset first byte of the window, or -1 for the whole file
     * @param length bytes of the window (cut at the end of the file); ignored for the whole file
     * @return bytes sent
     * @throws GridFtpReplyException if the server refuses or fails the transfer
     * @throws IOException on a local file error, a failed data channel or a timeout
     */
    long upload(
            Path localFile,
            String remotePath,
            TransferOptions options,
            TransferListener listener,
            long offset,
            long length)
            throws IOException {
        try (FileChannel in = FileChannel.open(localFile, StandardOpenOption.READ)) {
            DataSource source = offset < 0
                    ? DataSource.ofWholeFile(in)
                    : DataSource.ofFile(
                            in, Math.min(offset, in.size()), Math.max(0, Math.min(length, in.size() - offset)));
            return send(source, remotePath, options, listener, offset);
        }
    }

    /**
     * STOR, or with {@code offset >= 0} ESTO A: {@code source}'s bytes go to the remote file from its
     * first byte, or from {@code offset} on (GFD.020 "ESTO": the file is neither created afresh nor
     * truncated).
     *
     * @param offset where the first byte of {@code source} goes, or -1 for a whole new file
     * @return bytes sent
     * @throws GridFtpReplyException if the server refuses or fails the transfer
     * @throws IOException on a source read error, a failed data channel or a timeout
     */
    long send(DataSource source, String remotePath, TransferOptions options, TransferListener listener, long offset)
            throws IOException {
        AtomicLong moved = new AtomicLong();
        session.protect(options);
        session.setMode(options.mode());
        boolean modeE = options.mode() == TransferOptions.Mode.EXTENDED_BLOCK;
        InetSocketAddress address = session.uploadAddress(modeE); // both modes: we send, so we connect
        String command = offset < 0 ? ClientCommands.stor(remotePath) : ClientCommands.estoAdjusted(offset, remotePath);
        TransferWait wait = new TransferWait(session.channel());
        // a plain FTP server gets the data only after its 125/150 (see ReceiveStart); a GridFTP
        // server holds early data, and the data start with the command
        boolean plain = !modeE && !session.offers("PARALLEL");
        if (plain) {
            session.channel().send(command);
            ReceiveStart.await(session.channel(), command);
        }
        CompletableFuture<Long> sent = session.data()
                .send(
                        source,
                        new DataEndpoint.Active(address),
                        modeE,
                        options.parallelism(),
                        progress(moved, listener),
                        modeE ? session.dataCache() : null);
        if (plain) {
            return wait.finishSent(command, sent, moved, listener);
        }
        if (!modeE) {
            return wait.finish(command, sent, moved, listener);
        }
        return cached(DataUse.UPLOAD, () -> wait.finish(command, sent, moved, listener));
    }

    /** A transfer step that may fail. */
    private interface Step {
        long run() throws IOException;
    }

    /**
     * Runs a MODE E transfer whose connections stay cached: on success remembers {@code use} so the
     * next identical operation skips PASV/PORT; on failure drops the cache (its state is unknown).
     */
    private long cached(DataUse use, Step step) throws IOException {
        try {
            long bytes = step.run();
            session.cachedFor(use, true);
            return bytes;
        } catch (IOException | RuntimeException e) {
            session.dropData();
            throw e;
        }
    }

    /** @return a progress callback that records the count in {@code moved} and tells {@code listener} */
    static LongConsumer progress(AtomicLong moved, TransferListener listener) {
        return n -> {
            moved.set(n);
            listener.onProgress(n);
        };
    }
}
