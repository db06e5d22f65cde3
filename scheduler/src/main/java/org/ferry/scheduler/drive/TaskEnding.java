package org.ferry.scheduler.drive;

import java.time.Instant;
import java.util.UUID;
import org.ferry.api.store.ChunkTransition;
import org.ferry.api.store.FileStore;
import org.ferry.api.store.TaskStore;
import org.ferry.scheduler.queue.WorkQueue;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The one place that decides a task's end: SUCCEEDED when no file is left to move (a transfer) or
 * every path is gone (a delete task), FAILED on a fatal fault or the deadline; and its suspension
 * (INACTIVE) when an endpoint's credential is gone. Then it stops the task's work wherever it runs:
 * its chunks (within a second: the control topic, or the embedded mover directly) and its job.
 */
@Component
public class TaskEnding {

    private final TaskStore tasks;
    private final FileStore files;
    private final TransactionTemplate transactions;
    private final WorkQueue queue;
    private final TaskJobs jobs;
    private final Wakeup wakeup;

    /**
     * @param tasks the task store
     * @param files the file store
     * @param transactions transactions
     * @param queue the work queue (stops chunks)
     * @param jobs the engine's jobs (stops a delete walk or a mirror's deletion)
     * @param wakeup wakes the engine (to delete a mirror's extras before the task ends)
     */
    public TaskEnding(
            TaskStore tasks,
            FileStore files,
            TransactionTemplate transactions,
            WorkQueue queue,
            TaskJobs jobs,
            Wakeup wakeup) {
        this.tasks = tasks;
        this.files = files;
        this.transactions = transactions;
        this.queue = queue;
        this.jobs = jobs;
        this.wakeup = wakeup;
    }

    /**
     * Ends a planned transfer that has no file left PENDING or ACTIVE: SUCCEEDED, or FAILED with
     * the fault of a file that failed permanently (a task never succeeds with a failed file). A
     * task with {@code delete_destination_extra} whose extras are not deleted yet stays ACTIVE: the
     * engine runs the deletion, then ends it.
     *
     * @return true if this call ended it
     */
    public boolean finishIfDone(UUID taskId) {
        String[] failed = new String[2];
        boolean[] mirror = new boolean[1];
        Boolean ended = transactions.execute(status -> {
            if (files.hasOpenFiles(taskId)) {
                return false;
            }
            String[] failure = files.firstFailure(taskId);
            boolean done;
            if (failure == null && tasks.mirrorPending(taskId)) {
                mirror[0] = true;
                return false;
            }
            if (failure == null) {
                done = tasks.succeed(taskId, Instant.now());
            } else {
                done = tasks.fail(taskId, failure[0], failure[1], Instant.now());
                failed[0] = failure[0];
            }
            if (done) {
                files.endChunksOf(taskId);
            }
            return done;
        });
        if (failed[0] != null) {
            stopWork(taskId);
        }
        if (mirror[0]) {
            wakeup.wake();
        }
        return Boolean.TRUE.equals(ended);
    }

    /**
     * Ends a delete task whose every path is gone: SUCCEEDED with what it removed.
     *
     * @return true if this call ended it
     */
    public boolean succeed(UUID taskId) {
        return Boolean.TRUE.equals(transactions.execute(status -> tasks.succeed(taskId, Instant.now())));
    }

    /**
     * Ends the task FAILED and stops its work.
     *
     * @return true if this call ended it
     */
    public boolean fail(UUID taskId, String code, String description) {
        Boolean ended = transactions.execute(status -> {
            boolean done = tasks.fail(taskId, code, description, Instant.now());
            if (done) {
                files.endChunksOf(taskId);
            }
            return done;
        });
        stopWork(taskId);
        return Boolean.TRUE.equals(ended);
    }

    /**
     * Suspends an ACTIVE task (INACTIVE) until an endpoint is activated again: its chunks end here
     * and their files go back to PENDING with the ranges the destination acknowledged (what moved
     * is kept), then its work stops.
     *
     * @param description the {@code NO_CREDENTIALS} event: which endpoint, and what to do
     * @return true if this call suspended it
     */
    public boolean suspend(UUID taskId, String description) {
        Boolean suspended = transactions.execute(status -> {
            if (!tasks.suspend(taskId, description, Instant.now())) {
                return false;
            }
            for (long chunkId : files.activeChunkIds(taskId)) {
                files.endChunk(chunkId, ChunkTransition.FINISH, null);
            }
            return true;
        });
        stopWork(taskId);
        return Boolean.TRUE.equals(suspended);
    }

    /**
     * Stops the task's work wherever it runs (after a cancel, an expiry, a failure or a
     * suspension): its chunks on every mover, and its job on this instance.
     */
    public void stopWork(UUID taskId) {
        queue.cancelTask(taskId);
        jobs.stop(taskId);
    }
}
