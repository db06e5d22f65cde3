package org.ferry.mover.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongConsumer;
import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.data.DataSink;
import org.ferry.mover.data.DataSource;
import org.ferry.mover.data.PassiveListener;
import org.ferry.mover.protocol.ClientCommands;

/**
 * A two-party batch in MODE E with pipelining (GridFTP pipelining, Bresnahan et al., TeraGrid
 * 2007): transfer commands (STOR or RETR) go out up to {@code depth} files ahead of the final
 * replies, and the data of one file at a time moves over the cached connections (a file's data
 * starts once the previous file's data is done on our side and its command is sent; the server
 * holds early blocks until the command is processed).
 */
final class PipelinedTwoParty {

    /** How long a failed batch waits for the replies to its remaining pipelined commands. */
    private static final Duration DRAIN_QUIET = Duration.ofSeconds(5);

    private final SessionControl session;

    /** @param session the session the batch runs on */
    PipelinedTwoParty(SessionControl session) {
        this.session = session;
    }

    /**
     * Uploads every local {@code source} to its remote {@code destination}.
     *
     * @return bytes sent; each file is reported to {@code listener} when the server confirms it
     * @throws GridFtpReplyException for the first file the server refused
     * @throws IOException on a local file error, a failed data channel or a timeout
     */
    long upload(List<FilePair> files, TransferOptions options, int depth, TransferListener listener)
            throws IOException {
        session.protect(options);
        session.setMode(options.mode());
        InetSocketAddress address = session.uploadAddress(true);
        return run(
                files,
                "STOR",
                file -> ClientCommands.stor(file.destination()),
                depth,
                listener,
                DataUse.UPLOAD,
                (file, progress) -> {
                    FileChannel in = FileChannel.open(Path.of(file.source()), StandardOpenOption.READ);
                    CompletableFuture<Long> sent = session.data()
                            .send(
                                    DataSource.ofWholeFile(in),
                                    new DataEndpoint.Active(address),
                                    true,
                                    options.parallelism(),
                                    progress,
                                    session.dataCache());
                    return new LocalTransfer(in, sent);
                });
    }

    /**
     * Downloads every remote {@code source} to its local {@code destination} (truncated first).
     *
     * @return bytes received; each file is reported to {@code listener} when the server confirms it
     * @throws GridFtpReplyException for the first file the server refused
     * @throws IOException on a local file error, a failed data channel or a timeout
     */
    long download(List<FilePair> files, TransferOptions options, int depth, TransferListener listener)
            throws IOException {
        session.protect(options);
        session.setMode(options.mode());
        session.setRetrOptions(SessionControl.parallelism(options.parallelism()));
        PassiveListener passive = session.downloadListener();
        return run(
                files,
                "RETR",
                file -> ClientCommands.retr(file.source()),
                depth,
                listener,
                DataUse.DOWNLOAD,
                (file, progress) -> {
                    FileChannel out = FileChannel.open(
                            Path.of(file.destination()),
                            StandardOpenOption.CREATE,
                            StandardOpenOption.WRITE,
                            StandardOpenOption.TRUNCATE_EXISTING);
                    CompletableFuture<Long> received = session.data()
                            .receive(
                                    DataSink.toFile(out, 0),
                                    new DataEndpoint.Passive(passive),
                                    true,
                                    progress,
                                    session.dataCache());
                    return new LocalTransfer(out, received);
                });
    }

    /** The local end of one file of a batch: its open file and its data transfer. */
    private record LocalTransfer(FileChannel file, CompletableFuture<Long> data) {}

    /** Starts the local data side of one file of a batch. */
    private interface LocalStarter {
        LocalTransfer start(FilePair file, LongConsumer progress) throws IOException;
    }

    private long run(
            List<FilePair> files,
            String verb,
            Function<FilePair, String> command,
            int depth,
            TransferListener listener,
            DataUse use,
            LocalStarter starter)
            throws IOException {
        ControlChannel channel = session.channel();
        TransferWait wait = new TransferWait(channel);
        PipelinedReplies replies = new PipelinedReplies(channel, new MarkerParser(listener));
        long[] bytes = new long[files.size()];
        int started = 0;
        int done = 0;
        long total = 0;
        LocalTransfer current = null;
        long lastMoved = 0;
        AtomicLong moved = new AtomicLong();
        try (ReplyWaiter waiter = new ReplyWaiter(channel.replyTimeout()).watch(channel)) {
            while (done < files.size()) {
                while (replies.sent() < files.size() && replies.sent() - done < depth) {
                    replies.send(command.apply(files.get(replies.sent())));
                }
                if (current != null && current.data().isDone()) {
                    try (FileChannel file = current.file()) {
                        bytes[started - 1] = wait.awaitData(verb, current.data());
                    }
                    current = null;
                }
                if (current == null && started < files.size() && started < replies.sent()) {
                    current = starter.start(files.get(started++), TwoPartyTransfer.progress(moved, listener));
                    waiter.watch(current.data());
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
                    waiter.alive();
                }
                waiter.checkAlive("pipelined " + verb);
                if (!heard && (current == null || !current.data().isDone())) {
                    waiter.pause();
                }
            }
        } catch (IOException | RuntimeException e) {
            if (current != null) {
                current.data().cancel(false);
                closeQuietly(current.file());
            }
            replies.drain(DRAIN_QUIET);
            session.dropData();
            throw e;
        }
        session.cachedFor(use, true);
        return total;
    }

    private static void closeQuietly(FileChannel file) {
        try {
            file.close();
        } catch (IOException e) {
            // the batch already failed; this adds nothing
        }
    }
}
