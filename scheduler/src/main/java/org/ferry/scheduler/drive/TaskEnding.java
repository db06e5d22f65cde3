package org.ferry.scheduler.drive;

import java.time.Instant;
import java.util.UUID;
import org.ferry.api.store.ChunkTransition;
import org.ferry.api.store.FileStore;
import org.ferry.api.store.TaskStore;
import org.ferry.scheduler.queue.WorkQueue;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Ends tasks: SUCCEEDED when no file is left to move, FAILED on a fatal fault or the deadline;
 * suspends them (INACTIVE) when an endpoint's credential is gone; then tells the movers to stop
 * the task's chunks (within a second: the control topic, or the
 * embedded mover directly).
 */
@Component
public class TaskEnding {

    private final TaskStore tasks;
    private final FileStore files;
    private final TransactionTemplate transactions;
    private final ObjectProvider<WorkQueue> queue;
    private final Wakeup wakeup;

    /**
     * @param tasks task rows
     * @param files file rows
     * @param transactions transactions
     * @param queue the work queue (looked up late: it delivers results here)
     * @param wakeup wakes the scheduler (to delete a mirror's extras before the task ends)
     */
    public TaskEnding(
            TaskStore tasks,
            FileStore files,
            TransactionTemplate transactions,
            ObjectProvider<WorkQueue> queue,
            Wakeup wakeup) {
        this.tasks = tasks;
        this.files = files;
        this.transactions = transactions;
        this.queue = queue;
        this.wakeup = wakeup;
    }

    /**
     * Ends a planned task that has no file left PENDING or ACTIVE: SUCCEEDED, or FAILED with the
     * fault of a file that failed permanently (a task never succeeds with a failed file). A task
     * with {@code delete_destination_extra} whose extras are not deleted yet stays ACTIVE: the
     * scheduler runs the deletion, then ends it.
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
                done = tasks.succeed(taskId, null, Instant.now());
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
            stopMovers(taskId);
        }
        if (mirror[0]) {
            wakeup.wake();
        }
        return Boolean.TRUE.equals(ended);
    }

    /**
     * Ends the task FAILED and stops its chunks.
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
        stopMovers(taskId);
        return Boolean.TRUE.equals(ended);
    }

    /**
     * Suspends an ACTIVE task (INACTIVE) until an endpoint is activated again: its chunks end here
     * and their files go back to PENDING with the ranges the destination acknowledged (what moved
     * is kept), then the movers stop them.
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
        stopMovers(taskId);
        return Boolean.TRUE.equals(suspended);
    }

    /** Tells the movers to stop the task's chunks (after a cancel, an expiry or a failure). */
    public void stopMovers(UUID taskId) {
        WorkQueue workQueue = queue.getIfAvailable();
        if (workQueue != null) {
            workQueue.cancelTask(taskId);
        }
    }
}
