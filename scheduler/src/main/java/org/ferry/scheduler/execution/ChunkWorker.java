package org.ferry.scheduler.execution;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.scheduler.TransferProperties;
import org.ferry.scheduler.queue.ChunkTuning;
import org.ferry.scheduler.queue.TransferChunk;
import org.ferry.scheduler.queue.WorkQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The embedded mover: {@code ferry.transfer.worker-threads} threads take chunks from the work
 * queue; each chunk is moved by {@code concurrency} lanes, each lane with its own source and
 * destination session, taking work from the chunk's {@link LaneFeed} (a big file, or a batch of
 * small files) until none is left.
 */
@Component
public class ChunkWorker implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ChunkWorker.class);
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(500);

    private final WorkQueue queue;
    private final TaskExecutions executions;
    private final TaskCompletion completion;
    private final FileMover mover;
    private final GridFtpClient client;
    private final int workerThreads;

    private final List<Thread> workers = new ArrayList<>();
    private ExecutorService lanes;
    private volatile boolean running;

    /**
     * @param queue where chunks come from
     * @param executions the running tasks
     * @param completion ends tasks
     * @param mover moves files
     * @param client opens sessions
     * @param properties worker thread count
     */
    public ChunkWorker(WorkQueue queue, TaskExecutions executions, TaskCompletion completion, FileMover mover,
            GridFtpClient client, TransferProperties properties) {
        this.queue = queue;
        this.executions = executions;
        this.completion = completion;
        this.mover = mover;
        this.client = client;
        this.workerThreads = properties.workerThreads();
    }

    @Override
    public synchronized void start() {
        running = true;
        AtomicInteger laneNumber = new AtomicInteger();
        lanes = Executors.newCachedThreadPool(r -> {
            Thread thread = new Thread(r, "ferry-lane-" + laneNumber.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        for (int i = 0; i < workerThreads; i++) {
            Thread worker = new Thread(this::consume, "ferry-mover-" + (i + 1));
            worker.setDaemon(true);
            worker.start();
            workers.add(worker);
        }
    }

    @Override
    public synchronized void stop() {
        running = false;
        // closing the sessions aborts transfers in flight; the tasks stay ACTIVE and resume on restart
        executions.all().forEach(TaskExecution::stop);
        workers.forEach(Thread::interrupt);
        workers.clear();
        if (lanes != null) {
            lanes.shutdownNow();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private void consume() {
        while (running) {
            try {
                TransferChunk chunk = queue.poll(POLL_TIMEOUT);
                if (chunk != null) {
                    run(chunk);
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                log.error("Mover worker failure", e);
            }
        }
    }

    private void run(TransferChunk chunk) throws InterruptedException {
        TaskExecution execution = executions.get(chunk.taskId()).orElse(null);
        if (execution == null || execution.isStopped()) {
            return; // the task ended (cancelled, failed) or runs elsewhere: drop the chunk
        }
        int laneCount = Math.max(1, Math.min(chunk.tuning().concurrency(), chunk.files().size()));
        LaneFeed feed = new LaneFeed(chunk.files(), laneCount, chunk.tuning().pipelining());
        List<Future<?>> others = new ArrayList<>();
        for (int i = 1; i < laneCount; i++) {
            others.add(lanes.submit(() -> lane(execution, feed, chunk.tuning())));
        }
        lane(execution, feed, chunk.tuning());
        for (Future<?> other : others) {
            try {
                other.get();
            } catch (ExecutionException e) {
                log.error("Lane failure in task {}", chunk.taskId(), e.getCause());
                completion.fail(execution, FaultClassifier.classify(e.getCause(), "Mover lane"));
            }
        }
        if (!execution.isStopped() && execution.chunkFinished()) {
            completion.succeed(execution);
        }
    }

    private void lane(TaskExecution execution, LaneFeed feed, ChunkTuning tuning) {
        try (SessionPair pair = new SessionPair(client, execution)) {
            LaneFeed.Work work;
            while (!execution.isStopped() && (work = feed.next()) != null) {
                FileMover.Outcome outcome = work.pipelined()
                        ? mover.moveBatch(execution, pair, work.files(), tuning.parallelism(), tuning.pipelining())
                        : mover.move(execution, pair, work.files().get(0), tuning.parallelism());
                if (outcome.failed()) {
                    execution.fileFailed();
                    completion.fail(execution, outcome.fault());
                    return;
                }
            }
        }
    }
}
