package org.ferry.scheduler.execution;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.scheduler.TransferProperties;
import org.ferry.scheduler.queue.ChunkTuning;
import org.ferry.scheduler.queue.FileTransfer;
import org.ferry.scheduler.queue.TransferChunk;
import org.ferry.scheduler.queue.WorkQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The embedded mover: {@code ferry.transfer.worker-threads} threads take chunks from the work
 * queue; each chunk is moved by {@code concurrency} lanes, each lane with its own source and
 * destination session, taking files from the chunk until none are left.
 */
@Component
public class ChunkWorker implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ChunkWorker.class);
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(500);
    /**
     * Files up to this size go in pipelined batches (their progress shows when each ends); bigger
     * ones move one at a time with progress from performance markers.
     */
    static final long BATCH_FILE_MAX_BYTES = 16L << 20;
    /** A lane takes at most this many files for one batch, so the other lanes still get work. */
    static final int BATCH_MAX_FILES = 200;
    /** ...and about this many bytes. */
    static final long BATCH_MAX_BYTES = 256L << 20;

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
        ConcurrentLinkedQueue<FileTransfer> files = new ConcurrentLinkedQueue<>(chunk.files());
        int laneCount = Math.max(1, Math.min(chunk.tuning().concurrency(), files.size()));
        List<Future<?>> others = new ArrayList<>();
        for (int i = 1; i < laneCount; i++) {
            others.add(lanes.submit(() -> lane(execution, files, chunk.tuning())));
        }
        lane(execution, files, chunk.tuning());
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

    private void lane(TaskExecution execution, ConcurrentLinkedQueue<FileTransfer> files, ChunkTuning tuning) {
        try (SessionPair pair = new SessionPair(client, execution)) {
            FileTransfer file;
            while (!execution.isStopped() && (file = files.poll()) != null) {
                FileMover.Outcome outcome;
                if (file.sizeBytes() <= BATCH_FILE_MAX_BYTES && tuning.pipelining() > 1) {
                    outcome = mover.moveBatch(execution, pair, takeBatch(file, files), tuning.parallelism(),
                            tuning.pipelining());
                } else {
                    outcome = mover.move(execution, pair, file, tuning.parallelism());
                }
                if (outcome.failed()) {
                    execution.fileFailed();
                    completion.fail(execution, outcome.fault());
                    return;
                }
            }
        }
    }

    /**
     * @return {@code first} and the small files that follow it in the queue, up to
     *     {@link #BATCH_MAX_FILES} files and {@link #BATCH_MAX_BYTES}; a big file met on the way goes
     *     back to the queue for a lane to move on its own
     */
    private static List<FileTransfer> takeBatch(FileTransfer first, ConcurrentLinkedQueue<FileTransfer> files) {
        List<FileTransfer> batch = new ArrayList<>(List.of(first));
        long bytes = first.sizeBytes();
        FileTransfer next;
        while (batch.size() < BATCH_MAX_FILES && bytes < BATCH_MAX_BYTES && (next = files.poll()) != null) {
            if (next.sizeBytes() > BATCH_FILE_MAX_BYTES) {
                files.add(next);
                break;
            }
            batch.add(next);
            bytes += next.sizeBytes();
        }
        return batch;
    }
}
