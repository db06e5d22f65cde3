package org.ferry.scheduler.queue.embedded;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.ferry.mover.access.EndpointSessions;
import org.ferry.mover.access.IdleSessionPairs;
import org.ferry.mover.queue.ChunkExecutor;
import org.ferry.mover.queue.ChunkMessage;
import org.ferry.mover.queue.ResultMessage;
import org.ferry.mover.runner.RetryPolicy;
import org.ferry.scheduler.TransferProperties;
import org.ferry.scheduler.queue.MoverResults;
import org.ferry.scheduler.queue.WorkQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * The embedded work queue and mover ({@code ferry.queue.type=in-process}, the default): {@code
 * ferry.transfer.worker-threads} threads in this JVM run chunk messages with the mover's
 * {@link ChunkExecutor}, and their results go straight to the {@link MoverResults} it was started
 * with (the scheduler's result applier). The queue
 * holds at most one chunk per free worker, so a chunk never waits behind another in memory (the
 * dispatcher keeps the rest in the database, where fairness decides). Chunks die with the JVM;
 * their files are offered again on the next start and resume from their restart markers.
 */
@Component
@ConditionalOnProperty(name = "ferry.queue.type", havingValue = "in-process", matchIfMissing = true)
public class InProcessWorkQueue implements WorkQueue {

    private static final Logger log = LoggerFactory.getLogger(InProcessWorkQueue.class);

    private final EndpointSessions sessions;
    private final IdleSessionPairs idleSessions;
    private final TransferProperties properties;
    private final LinkedBlockingQueue<ChunkMessage> chunks = new LinkedBlockingQueue<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final List<Thread> workers = new ArrayList<>();
    private ChunkExecutor executor;
    private MoverResults results;
    private volatile boolean running;

    /**
     * @param sessions opens the movers' sessions with the chunks' endpoint access (sealed secrets)
     * @param idleSessions session pairs that planning and earlier chunks gave back, for the lanes
     * @param properties worker threads, attempts, heartbeat interval
     */
    public InProcessWorkQueue(EndpointSessions sessions, IdleSessionPairs idleSessions, TransferProperties properties) {
        this.sessions = sessions;
        this.idleSessions = idleSessions;
        this.properties = properties;
    }

    @Override
    public int capacity() {
        return properties.workerThreads();
    }

    @Override
    public int freeSlots(int activeChunks) {
        return properties.workerThreads() - inFlight.get();
    }

    @Override
    public void submit(ChunkMessage chunk) {
        inFlight.incrementAndGet();
        chunks.add(chunk);
    }

    @Override
    public void cancelTask(UUID taskId) {
        chunks.removeIf(chunk -> {
            boolean drop = chunk.taskId().equals(taskId);
            if (drop) {
                inFlight.decrementAndGet();
            }
            return drop;
        });
        if (executor != null) {
            executor.cancelTask(taskId);
        }
    }

    @Override
    public void cancelChunk(long chunkId) {
        if (executor != null) {
            executor.cancelChunk(chunkId);
        }
    }

    @Override
    public Instant deliveringSince() {
        return Instant.EPOCH;
    }

    @Override
    public boolean chunksEndWithThisProcess() {
        return true;
    }

    @Override
    public Set<UUID> runningTasks() {
        Set<UUID> tasks = new HashSet<>();
        chunks.forEach(chunk -> tasks.add(chunk.taskId()));
        if (executor != null) {
            tasks.addAll(executor.runningTaskIds());
        }
        return tasks;
    }

    @Override
    public void stopAll() {
        chunks.forEach(chunk -> cancelTask(chunk.taskId()));
        if (executor != null) {
            executor.stopAll();
        }
    }

    @Override
    public synchronized void start(MoverResults results) {
        this.results = results;
        running = true;
        executor = new ChunkExecutor(
                "embedded",
                sessions,
                idleSessions,
                new RetryPolicy(properties.maxAttempts(), properties.retryBackoffSeconds()),
                properties.heartbeatInterval().toMillis());
        for (int i = 0; i < properties.workerThreads(); i++) {
            Thread worker = new Thread(this::work, "ferry-mover-" + (i + 1));
            worker.setDaemon(true);
            worker.start();
            workers.add(worker);
        }
    }

    @Override
    public synchronized void stop() {
        running = false;
        // closing the sessions aborts transfers in flight; their files resume on the next start
        if (executor != null) {
            executor.close();
        }
        workers.forEach(Thread::interrupt);
        workers.clear();
    }

    private void work() {
        while (running) {
            ChunkMessage chunk;
            try {
                chunk = chunks.take();
            } catch (InterruptedException e) {
                return;
            }
            AtomicBoolean slotFreed = new AtomicBoolean();
            try {
                executor.run(chunk, result -> {
                    if (result.type() == ResultMessage.Type.CHUNK_DONE && slotFreed.compareAndSet(false, true)) {
                        // free the slot before the applier sees the chunk's end: the pass that end
                        // wakes must find the slot free, or the next chunk waits a tick interval
                        inFlight.decrementAndGet();
                    }
                    results.offer(result);
                });
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                log.error("Embedded mover failed on chunk {}", chunk.chunkId(), e);
            } finally {
                if (slotFreed.compareAndSet(false, true)) {
                    inFlight.decrementAndGet();
                }
            }
        }
    }
}
