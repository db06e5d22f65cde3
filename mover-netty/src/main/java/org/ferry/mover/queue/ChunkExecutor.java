package org.ferry.mover.queue;

import java.io.IOException;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.ferry.mover.access.EndpointSessions;
import org.ferry.mover.access.IdleSessionPairs;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.protocol.ByteRange;
import org.ferry.mover.runner.ChunkListener;
import org.ferry.mover.runner.ChunkRunner;
import org.ferry.mover.runner.FaultCode;
import org.ferry.mover.runner.FileTransfer;
import org.ferry.mover.runner.MoverFault;
import org.ferry.mover.runner.RetryPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs chunk messages with the {@link ChunkRunner} and turns what it reports into
 * {@link ResultMessage}s: each file's arrival or faults, restart markers as they come, a
 * {@link ResultMessage.Type#PROGRESS} heartbeat per running chunk every heartbeat interval, and
 * {@link ResultMessage.Type#CHUNK_DONE} at the end. Stops a chunk (closing its sessions, which
 * aborts its transfers) on {@link #cancelTask}, {@link #cancelChunk}, {@link #stopAll}, at the
 * task's deadline, or when an endpoint's credential is about to expire (CHUNK_DONE then carries
 * {@code NO_CREDENTIALS}). Thread-safe: several threads run chunks at once.
 */
public final class ChunkExecutor implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ChunkExecutor.class);
    private static final long WATCH_MILLIS = 100;

    private final String moverName;
    private final ChunkRunner runner;
    private final ExecutorService lanes;
    private final ScheduledExecutorService heartbeats;
    private final Map<Long, Execution> running = new ConcurrentHashMap<>();

    /**
     * @param moverName this mover's name in results (host and process)
     * @param sessions opens sessions from the chunks' endpoint access values (unsealing their
     *     secrets with the installation's credential key)
     * @param retries attempts per file within one chunk, and the back-off between them
     * @param heartbeatMillis how often a running chunk reports PROGRESS
     */
    public ChunkExecutor(String moverName, EndpointSessions sessions, RetryPolicy retries, long heartbeatMillis) {
        this(moverName, sessions, null, retries, heartbeatMillis);
    }

    /**
     * @param moverName this mover's name in results (host and process)
     * @param sessions opens sessions from the chunks' endpoint access values
     * @param idle session pairs earlier work gave back, reused by the lanes (not closed here); null
     *     for none
     * @param retries attempts per file within one chunk, and the back-off between them
     * @param heartbeatMillis how often a running chunk reports PROGRESS
     */
    public ChunkExecutor(
            String moverName,
            EndpointSessions sessions,
            IdleSessionPairs idle,
            RetryPolicy retries,
            long heartbeatMillis) {
        this.moverName = Objects.requireNonNull(moverName, "moverName");
        AtomicInteger laneNumber = new AtomicInteger();
        this.lanes = Executors.newCachedThreadPool(r -> {
            Thread thread = new Thread(r, "ferry-lane-" + laneNumber.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        this.runner = new ChunkRunner(sessions, idle, retries, lanes);
        this.heartbeats = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "ferry-chunk-heartbeat");
            thread.setDaemon(true);
            return thread;
        });
        heartbeats.scheduleWithFixedDelay(this::beat, heartbeatMillis, heartbeatMillis, TimeUnit.MILLISECONDS);
        // a chunk moving one big file asks isStopped() only between files: the deadline and the
        // credentials' end are watched here too, so that its sessions close on time
        heartbeats.scheduleWithFixedDelay(this::watch, WATCH_MILLIS, WATCH_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * Moves a chunk on the calling thread (its first lane), reporting to {@code sink}; ends with a
     * {@link ResultMessage.Type#CHUNK_DONE}, also when stopped.
     *
     * @param chunk the chunk
     * @param sink where results go
     * @throws InterruptedException if the thread is interrupted (shutdown); the chunk is stopped
     *     and no CHUNK_DONE is sent (the service finds the chunk lost and offers it again)
     */
    public void run(ChunkMessage chunk, ResultSink sink) throws InterruptedException {
        Execution execution = new Execution(chunk, sink);
        if (running.putIfAbsent(chunk.chunkId(), execution) != null) {
            log.warn("Chunk {} delivered again while it runs here: ignored", chunk.chunkId());
            return;
        }
        MoverFault stoppedBy = null;
        try {
            stoppedBy = runner.run(chunk.request(), execution);
        } catch (IllegalArgumentException malformed) {
            stoppedBy = new MoverFault(FaultCode.UNKNOWN, "Malformed chunk: " + malformed.getMessage());
        } finally {
            running.remove(chunk.chunkId());
            execution.stop();
        }
        if (execution.credentialsExpired) {
            // stopped before an endpoint's credential ran out: the service makes the task INACTIVE
            stoppedBy = new MoverFault(
                    FaultCode.NO_CREDENTIALS,
                    "The credential an endpoint of the task ("
                            + chunk.request().source().endpoint() + " or "
                            + chunk.request().destination().endpoint()
                            + ") was activated with expired at "
                            + Instant.ofEpochMilli(chunk.credentialsExpireEpochMillis())
                            + ": activate it again");
        }
        sink.publish(execution.result(
                ResultMessage.Type.CHUNK_DONE,
                0,
                0,
                0,
                false,
                stoppedBy == null ? null : stoppedBy.code().name(),
                false,
                false,
                stoppedBy == null ? null : stoppedBy.description(),
                null));
    }

    /** Stops every chunk of a task running here. */
    public void cancelTask(UUID taskId) {
        running.values().stream().filter(e -> e.chunk.taskId().equals(taskId)).forEach(Execution::stop);
    }

    /** Stops one chunk if it runs here. */
    public void cancelChunk(long chunkId) {
        Execution execution = running.get(chunkId);
        if (execution != null) {
            execution.stop();
        }
    }

    /** Stops every chunk running here (e.g. this mover lost touch with the service). */
    public void stopAll() {
        running.values().forEach(Execution::stop);
    }

    /** @return the tasks of the chunks running now */
    public Set<UUID> runningTaskIds() {
        Set<UUID> tasks = new HashSet<>();
        running.values().forEach(e -> tasks.add(e.chunk.taskId()));
        return tasks;
    }

    /** @return the chunks running now */
    public int runningChunks() {
        return running.size();
    }

    /** @return the ids of the chunks running now */
    public Set<Long> runningChunkIds() {
        return Set.copyOf(running.keySet());
    }

    private void watch() {
        for (Execution execution : running.values()) {
            execution.isStopped();
        }
    }

    private void beat() {
        for (Execution execution : running.values()) {
            try {
                execution.heartbeat();
            } catch (RuntimeException e) {
                log.warn("Heartbeat of chunk {} failed", execution.chunk.chunkId(), e);
            }
        }
    }

    @Override
    public void close() {
        stopAll();
        heartbeats.shutdownNow();
        lanes.shutdownNow();
    }

    /** One chunk running here: the runner's listener. */
    private final class Execution implements ChunkListener {
        private final ChunkMessage chunk;
        private final ResultSink sink;
        private final Long deadline;
        private final Long credentialsExpire;
        private volatile boolean credentialsExpired;
        private final AtomicBoolean stopped = new AtomicBoolean();
        private final Set<GridFtpSession> sessions = ConcurrentHashMap.newKeySet();
        private final AtomicLong bytesInFlight = new AtomicLong();
        /** A multicast chunk's files in flight: what each destination holds of them. */
        private final Map<Long, DestinationProgress> destinationProgress = new ConcurrentHashMap<>();

        Execution(ChunkMessage chunk, ResultSink sink) {
            this.chunk = chunk;
            this.sink = sink;
            this.deadline = chunk.deadlineEpochMillis();
            this.credentialsExpire = chunk.credentialsExpireEpochMillis() == null
                    ? null
                    : chunk.credentialsExpireEpochMillis() - EndpointSessions.EXPIRY_MARGIN.toMillis();
        }

        void stop() {
            if (stopped.compareAndSet(false, true)) {
                for (GridFtpSession session : List.copyOf(sessions)) {
                    closeQuietly(session);
                }
            }
        }

        void heartbeat() {
            if (!stopped.get()) {
                sink.publish(result(
                        ResultMessage.Type.PROGRESS,
                        0,
                        Math.max(0, bytesInFlight.get()),
                        0,
                        false,
                        null,
                        false,
                        false,
                        null,
                        null));
            }
        }

        ResultMessage result(
                ResultMessage.Type type,
                long fileId,
                long bytes,
                int attempt,
                boolean willRetry,
                String code,
                boolean permanent,
                boolean onSource,
                String description,
                String acknowledged) {
            return result(
                    type,
                    fileId,
                    bytes,
                    attempt,
                    willRetry,
                    code,
                    permanent,
                    onSource,
                    description,
                    acknowledged,
                    null);
        }

        ResultMessage result(
                ResultMessage.Type type,
                long fileId,
                long bytes,
                int attempt,
                boolean willRetry,
                String code,
                boolean permanent,
                boolean onSource,
                String description,
                String acknowledged,
                String checksum) {
            return new ResultMessage(
                    MessageCodec.VERSION,
                    type,
                    chunk.taskId(),
                    chunk.chunkId(),
                    fileId,
                    bytes,
                    attempt,
                    willRetry,
                    code,
                    permanent,
                    onSource,
                    description,
                    acknowledged,
                    checksum,
                    moverName,
                    System.currentTimeMillis(),
                    type == ResultMessage.Type.PROGRESS
                            ? destinations()
                            : type == ResultMessage.Type.FILE_FAULT ? destinations(fileId) : null);
        }

        /** @return what each destination holds of one multicast file ({@code bytes/files,...}), or null */
        private String destinations(long fileId) {
            DestinationProgress progress = destinationProgress.get(fileId);
            if (progress == null) {
                return null;
            }
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < progress.bytes().length; i++) {
                text.append(i == 0 ? "" : ",")
                        .append(progress.bytes()[i])
                        .append('/')
                        .append(progress.holding()[i] ? 1 : 0);
            }
            return text.toString();
        }

        /** @return per destination {@code bytes/files} in flight (see ResultMessage), or null for one destination */
        private String destinations() {
            int count = chunk.request().additionalDestinations().size();
            if (count == 0) {
                return null;
            }
            long[] bytes = new long[count + 1];
            long[] whole = new long[count + 1];
            for (DestinationProgress progress : destinationProgress.values()) {
                for (int i = 0; i < bytes.length && i < progress.bytes().length; i++) {
                    bytes[i] += progress.bytes()[i];
                    whole[i] += progress.holding()[i] ? 1 : 0;
                }
            }
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < bytes.length; i++) {
                text.append(i == 0 ? "" : ",").append(bytes[i]).append('/').append(whole[i]);
            }
            return text.toString();
        }

        @Override
        public void onDestinationProgress(FileTransfer file, long[] bytes, boolean[] holding) {
            destinationProgress.put(file.id(), new DestinationProgress(bytes, holding));
        }

        @Override
        public boolean isStopped() {
            if (!stopped.get() && deadline != null && System.currentTimeMillis() >= deadline) {
                stop(); // the task expired: stop the data flow without waiting for the service
            }
            if (!stopped.get() && credentialsExpire != null && System.currentTimeMillis() >= credentialsExpire) {
                credentialsExpired = true; // a session would outlive its credential: stop before it fails
                stop();
            }
            return stopped.get();
        }

        @Override
        public void sessionOpened(GridFtpSession session) {
            sessions.add(session);
            if (stopped.get()) {
                closeQuietly(session);
            }
        }

        @Override
        public void sessionClosed(GridFtpSession session) {
            sessions.remove(session);
        }

        @Override
        public void onSessionRefused(MoverFault fault) {
            if (stopped.get()) {
                return;
            }
            sink.publish(result(
                    ResultMessage.Type.SESSION_REFUSED,
                    0,
                    0,
                    0,
                    false,
                    fault.code().name(),
                    false,
                    fault.onSource(),
                    fault.description(),
                    null));
        }

        @Override
        public void onBytes(long delta) {
            bytesInFlight.addAndGet(delta);
        }

        @Override
        public void onRestartMarker(FileTransfer file, List<ByteRange> acknowledged) {
            sink.publish(result(
                    ResultMessage.Type.MARKER,
                    file.id(),
                    0,
                    0,
                    false,
                    null,
                    false,
                    false,
                    null,
                    ByteRange.format(acknowledged)));
        }

        @Override
        public void onFileArrived(FileTransfer file, long bytes, String checksum) {
            bytesInFlight.addAndGet(-bytes);
            destinationProgress.remove(file.id());
            sink.publish(result(
                    ResultMessage.Type.FILE_ARRIVED,
                    file.id(),
                    bytes,
                    0,
                    false,
                    null,
                    false,
                    false,
                    null,
                    null,
                    checksum));
        }

        @Override
        public void onFault(
                FileTransfer file, MoverFault fault, int attempt, boolean willRetry, List<ByteRange> acknowledged) {
            if (stopped.get()) {
                return; // a stop closed the sessions: not the file's fault
            }
            sink.publish(result(
                    ResultMessage.Type.FILE_FAULT,
                    file.id(),
                    0,
                    attempt,
                    willRetry,
                    fault.code().name(),
                    fault.isPermanent(),
                    fault.onSource(),
                    fault.description(),
                    ByteRange.format(acknowledged)));
            if (!willRetry) {
                destinationProgress.remove(file.id());
            }
        }
    }

    /** What each destination holds of one multicast file in flight. */
    private record DestinationProgress(long[] bytes, boolean[] holding) {}

    private static void closeQuietly(GridFtpSession session) {
        try {
            session.close();
        } catch (IOException | RuntimeException ignored) {
            // a broken control channel is what we are getting rid of
        }
    }
}
