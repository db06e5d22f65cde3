package org.ferry.scheduler.execution;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.ferry.mover.access.EndpointSessions;
import org.ferry.mover.runner.ChunkRequest;
import org.ferry.mover.runner.ChunkRunner;
import org.ferry.mover.runner.FaultCode;
import org.ferry.mover.runner.MoverFault;
import org.ferry.mover.runner.RetryPolicy;
import org.ferry.scheduler.TransferProperties;
import org.ferry.scheduler.queue.TransferChunk;
import org.ferry.scheduler.queue.WorkQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The embedded mover: {@code ferry.transfer.worker-threads} threads take chunks from the work
 * queue and run each with the mover's {@link ChunkRunner} (lanes, pipelined batches, retries that
 * resume from restart markers), applying what it reports to the task through a
 * {@link TaskChunkListener}.
 */
@Component
public class ChunkWorker implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ChunkWorker.class);
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(500);

    private final WorkQueue queue;
    private final TaskExecutions executions;
    private final TaskCompletion completion;
    private final TaskRecorder recorder;
    private final EndpointSessions sessions;
    private final RetryPolicy retries;
    private final int workerThreads;

    private final List<Thread> workers = new ArrayList<>();
    private ExecutorService lanes;
    private ChunkRunner runner;
    private volatile boolean running;

    /**
     * @param queue where chunks come from
     * @param executions the running tasks
     * @param completion ends tasks
     * @param recorder where faults go
     * @param sessions opens sessions from the endpoints' access values
     * @param properties worker thread count, attempts and back-off
     */
    public ChunkWorker(
            WorkQueue queue,
            TaskExecutions executions,
            TaskCompletion completion,
            TaskRecorder recorder,
            EndpointSessions sessions,
            TransferProperties properties) {
        this.queue = queue;
        this.executions = executions;
        this.completion = completion;
        this.recorder = recorder;
        this.sessions = sessions;
        this.retries = new RetryPolicy(properties.maxAttempts(), properties.retryBackoffSeconds());
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
        runner = new ChunkRunner(sessions, retries, lanes);
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
        ChunkRequest request = new ChunkRequest(
                execution.source(),
                execution.destination(),
                chunk.files(),
                chunk.tuning(),
                execution.verifyChecksum(),
                execution.dataProtection());
        MoverFault fatal = runner.run(request, new TaskChunkListener(execution, recorder, completion));
        if (fatal != null && fatal.code() == FaultCode.NO_CREDENTIALS && !execution.isStopped()) {
            completion.suspend(execution, Suspension.fault(fatal.description()));
        } else if (fatal != null && !execution.isStopped()) {
            log.error("Chunk {} of task {} failed: {}", chunk.chunkId(), chunk.taskId(), fatal.description());
            completion.fail(execution, FaultClassifier.of(fatal)); // a lane crashed
        }
        if (!execution.isStopped() && execution.chunkFinished()) {
            completion.succeed(execution);
        }
    }
}
