package org.ferry.scheduler.drive;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.ferry.api.domain.EventCode;
import org.ferry.api.domain.Task;
import org.ferry.api.domain.TaskStatus;
import org.ferry.api.repository.DeleteItemRepository;
import org.ferry.api.repository.TaskRepository;
import org.ferry.api.repository.TransferItemRepository;
import org.ferry.api.store.FileStore;
import org.ferry.api.store.TaskStore;
import org.ferry.mover.access.EndpointSessions;
import org.ferry.mover.access.IdleSessionPairs;
import org.ferry.mover.runner.Faults;
import org.ferry.mover.runner.MoverFault;
import org.ferry.scheduler.TransferProperties;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What the engine's jobs (planning, a mirror's deletion, a delete task) work with, and how each of
 * them takes a fault: a permanent one fails the task, a transient one backs it off (it stays
 * ACTIVE, says why, and the engine runs the job again after the back-off, until the deadline).
 *
 * @param taskRepository the tasks, for reading
 * @param transferItems a transfer's items
 * @param deleteItems a delete task's paths
 * @param tasks the task store
 * @param files the file store
 * @param transactions transactions
 * @param ending ends and suspends tasks
 * @param sessions opens GridFTP sessions with the owner's endpoint access
 * @param idleSessions logged-in session pairs given back by earlier work, for planning to start from
 * @param activations the owner's endpoint access, and suspensions for missing credentials
 * @param properties back-off
 */
@Component
public record JobContext(
        TaskRepository taskRepository,
        TransferItemRepository transferItems,
        DeleteItemRepository deleteItems,
        TaskStore tasks,
        FileStore files,
        TransactionTemplate transactions,
        TaskEnding ending,
        EndpointSessions sessions,
        IdleSessionPairs idleSessions,
        Activations activations,
        TransferProperties properties) {

    /** @return the task if it is ACTIVE */
    public Optional<Task> activeTask(UUID taskId) {
        return taskRepository.findById(taskId).filter(task -> task.getStatus() == TaskStatus.ACTIVE);
    }

    /**
     * The task a job starts on, read again: the pass that started the job read its row before,
     * and may have missed a back-off that the task's previous job wrote as it ended (starting
     * again at once would count the same fault twice and double the back-off).
     *
     * @return the task if it is ACTIVE and not backing off
     */
    public Optional<Task> readyTask(UUID taskId) {
        Instant now = Instant.now();
        return activeTask(taskId)
                .filter(task ->
                        task.getRetryAfter() == null || !task.getRetryAfter().isAfter(now));
    }

    /**
     * Takes a fault of a job: a permanent one fails the task; a transient one backs it off with the
     * fault's code in {@code nice_status}, one more fault counted and its event.
     *
     * @param taskId the task
     * @param failure what went wrong
     * @param doing what the job was doing, for the fault's description
     * @return the fault as classified
     */
    public MoverFault fault(UUID taskId, Exception failure, String doing) {
        MoverFault fault = Faults.classify(failure, doing);
        if (fault.isPermanent()) {
            ending.fail(taskId, fault.code().name(), fault.description());
            return fault;
        }
        transactions.executeWithoutResult(status -> {
            int consecutive = tasks.consecutiveFaults(taskId) + 1;
            Instant retryAfter = Instant.now()
                    .plus(properties.backoff(
                            consecutive, ThreadLocalRandom.current().nextDouble()));
            tasks.backOff(taskId, fault.code().name(), retryAfter);
            tasks.addFaults(taskId, 1, fault.code().name());
            tasks.eventIfActive(taskId, EventCode.valueOf(fault.code().name()), fault.description(), null);
        });
        return fault;
    }
}
