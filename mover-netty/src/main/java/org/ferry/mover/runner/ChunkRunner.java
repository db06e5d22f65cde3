package org.ferry.mover.runner;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.ferry.mover.access.EndpointSessions;
import org.ferry.mover.access.IdleSessionPairs;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.TransferOptions;
import org.ferry.mover.protocol.ByteRange;

/**
 * Moves one chunk: {@code concurrency} lanes, each with its own source and destination session,
 * take work from the chunk's {@link LaneFeed} (a big file, a file resuming from restart markers, or
 * a batch of small files) until none is left, the chunk stops, or a file runs out of attempts on a
 * transient fault (the endpoint is probably down: the files not tried go back to the service, which
 * offers them again after a back-off). A file that fails permanently (no such file, permission
 * denied) is reported and the lanes go on with the others. The calling thread runs the first lane;
 * the others run on the lane executor. The chunk moves in MODE E when both servers speak it, else
 * in stream mode with the stream-mode tuning ({@link ChunkTuning#forStreamMode}: concurrency only,
 * one file at a time per lane, a retry resuming from the destination's size). Thread-safe: one
 * runner serves many chunks at once.
 */
public final class ChunkRunner {

    private final EndpointSessions sessions;
    private final IdleSessionPairs idle;
    private final FileMover mover;
    private final BatchMover batches;
    private final ExecutorService lanes;

    /**
     * @param sessions opens the lanes' sessions from the chunk's endpoint access values
     * @param retries attempts per file and back-off
     * @param lanes runs the second and further lanes of a chunk (not shut down here)
     */
    public ChunkRunner(EndpointSessions sessions, RetryPolicy retries, ExecutorService lanes) {
        this(sessions, null, retries, lanes);
    }

    /**
     * @param sessions opens the lanes' sessions from the chunk's endpoint access values
     * @param idle sessions given back by earlier work between the same endpoints: a lane starts from
     *     one and gives its own back when it ends without a fault; null for none
     * @param retries attempts per file and back-off
     * @param lanes runs the second and further lanes of a chunk (not shut down here)
     */
    public ChunkRunner(EndpointSessions sessions, IdleSessionPairs idle, RetryPolicy retries, ExecutorService lanes) {
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.idle = idle;
        this.mover = new FileMover(retries);
        this.batches = new BatchMover(mover);
        this.lanes = Objects.requireNonNull(lanes, "lanes");
    }

    /**
     * Moves the chunk's files, reporting to {@code listener} as it goes.
     *
     * @param chunk what to move
     * @param listener where results go, and whether to stop
     * @return null when every file arrived or failed permanently, or the chunk stopped; otherwise
     *     the transient fault of the first file that ran out of attempts, or a {@link
     *     FaultCode#NO_CREDENTIALS} fault at once when an endpoint's credential expired (the lanes
     *     stopped starting new files then)
     * @throws InterruptedException if the calling thread is interrupted while other lanes finish
     */
    public MoverFault run(ChunkRequest chunk, ChunkListener listener) throws InterruptedException {
        if (chunk.files().isEmpty() || listener.isStopped()) {
            return null;
        }
        FirstFault fatal = new FirstFault(listener);
        SessionPair first = new SessionPair(sessions, idle, chunk, fatal);
        boolean modeE = extendedBlockMode(first, fatal);
        ChunkTuning tuning = modeE ? chunk.tuning() : ChunkTuning.forStreamMode(chunk.files());
        TransferOptions options = modeE ? TransferOptions.extendedBlock(tuning.parallelism()) : TransferOptions.STREAM;
        int laneCount = Math.max(1, Math.min(tuning.concurrency(), chunk.files().size()));
        // a multicast file goes on its own: its tree is set for each STOR, and checked at every destination
        LaneFeed feed = new LaneFeed(chunk.files(), laneCount, chunk.isMulticast() ? 1 : tuning.pipelining());
        List<Future<?>> others = new ArrayList<>();
        for (int i = 1; i < laneCount; i++) {
            others.add(lanes.submit(
                    () -> lane(chunk, fatal, feed, new SessionPair(sessions, idle, chunk, fatal), options, tuning)));
        }
        lane(chunk, fatal, feed, first, options, tuning);
        for (Future<?> other : others) {
            try {
                other.get();
            } catch (ExecutionException e) {
                fatal.set(Faults.classify(e.getCause(), "Mover lane"));
            }
        }
        return fatal.get();
    }

    /**
     * @return whether the chunk moves in MODE E: both servers speak it (the first lane's sessions
     *     ask); true when they cannot be asked (the lanes then meet the fault and report it per file;
     *     a login refused as busy is reported at once, as no file's attempt sees it)
     */
    private static boolean extendedBlockMode(SessionPair pair, ChunkListener listener) {
        try {
            return pair.extendedBlockMode();
        } catch (IOException | RuntimeException e) {
            pair.close();
            if (Faults.refusedAsBusy(e) && !listener.isStopped()) {
                listener.onSessionRefused(Faults.classify(e, "Logging in"));
            }
            return true;
        }
    }

    private void lane(
            ChunkRequest chunk,
            FirstFault fatal,
            LaneFeed feed,
            SessionPair lanePair,
            TransferOptions options,
            ChunkTuning tuning) {
        try (SessionPair pair = lanePair) {
            LaneFeed.Work work;
            while (!fatal.isStopped() && (work = feed.next()) != null) {
                FileMover.Outcome outcome = work.pipelined()
                        ? batches.moveBatch(chunk, fatal, pair, work.files(), options, tuning.pipelining())
                        : mover.move(chunk, fatal, pair, work.files().get(0), options);
                if (outcome.failed()) {
                    fatal.set(outcome.fault());
                    return;
                }
            }
            if (!fatal.isStopped()) {
                pair.giveBack(); // every file of the lane ended with a reply: the sessions are in step
            }
        }
    }

    /**
     * The chunk's listener, which also stops the chunk's lanes once a file has run out of attempts
     * on a transient fault and keeps that first fault.
     */
    private static final class FirstFault implements ChunkListener {
        private final ChunkListener delegate;
        private volatile MoverFault fault;

        FirstFault(ChunkListener delegate) {
            this.delegate = delegate;
        }

        /** @return true if this was the chunk's first fatal fault */
        synchronized boolean set(MoverFault failed) {
            if (fault == null) {
                fault = failed;
                return true;
            }
            return false;
        }

        MoverFault get() {
            return fault;
        }

        @Override
        public boolean isStopped() {
            return fault != null || delegate.isStopped();
        }

        @Override
        public void sessionOpened(GridFtpSession session) {
            delegate.sessionOpened(session);
        }

        @Override
        public void sessionClosed(GridFtpSession session) {
            delegate.sessionClosed(session);
        }

        @Override
        public void onSessionRefused(MoverFault refusal) {
            delegate.onSessionRefused(refusal);
        }

        @Override
        public void onBytes(long delta) {
            delegate.onBytes(delta);
        }

        @Override
        public void onRestartMarker(FileTransfer file, List<ByteRange> acknowledged) {
            delegate.onRestartMarker(file, acknowledged);
        }

        @Override
        public void onResume(FileTransfer file, List<ByteRange> skipped) {
            delegate.onResume(file, skipped);
        }

        @Override
        public void onDestinationProgress(FileTransfer file, long[] bytes, boolean[] holding) {
            delegate.onDestinationProgress(file, bytes, holding);
        }

        @Override
        public void onFileArrived(FileTransfer file, long bytes, String checksum) {
            delegate.onFileArrived(file, bytes, checksum);
        }

        @Override
        public void onFault(
                FileTransfer file, MoverFault failed, int attempt, boolean willRetry, List<ByteRange> acknowledged) {
            delegate.onFault(file, failed, attempt, willRetry, acknowledged);
        }
    }
}
