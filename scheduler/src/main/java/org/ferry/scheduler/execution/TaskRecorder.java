package org.ferry.scheduler.execution;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.ferry.api.domain.EventCode;
import org.ferry.api.domain.TaskEvent;
import org.ferry.api.domain.TaskStatus;
import org.ferry.api.domain.TransferredFile;
import org.ferry.api.repository.TaskEventRepository;
import org.ferry.api.repository.TaskRepository;
import org.ferry.api.repository.TransferredFileRepository;
import org.ferry.scheduler.TransferProperties;
import org.ferry.scheduler.plan.TransferPlan;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Writes what executions report to the database: events, counters (in batches, see
 * {@link #flush}), arrived files, and the task's end.
 */
@Component
public class TaskRecorder {

    private final TaskRepository tasks;
    private final TaskEventRepository events;
    private final TransferredFileRepository transferredFiles;
    private final long progressIntervalMillis;

    /**
     * @param tasks task store
     * @param events event store
     * @param transferredFiles arrived-file store
     * @param properties progress interval
     */
    public TaskRecorder(
            TaskRepository tasks,
            TaskEventRepository events,
            TransferredFileRepository transferredFiles,
            TransferProperties properties) {
        this.tasks = tasks;
        this.events = events;
        this.transferredFiles = transferredFiles;
        this.progressIntervalMillis = properties.progressIntervalSeconds() * 1000L;
    }

    /** Records an event. */
    public void event(UUID taskId, EventCode code, String description, String details) {
        events.save(new TaskEvent(taskId, code, description, details));
    }

    /**
     * Records an event while the task is ACTIVE, under its row lock: once a cancel or the
     * deadline has ended the task, an attempt still finishing elsewhere adds nothing after the
     * end event.
     *
     * @return false if the task had ended and nothing was written
     */
    private boolean eventWhileActive(UUID taskId, EventCode code, String description, String details) {
        if (tasks.lockIfActive(taskId) == 0) {
            return false;
        }
        event(taskId, code, description, details);
        return true;
    }

    /** Records a fault: the event, and the fault counter and nice status on the next flush. */
    @Transactional
    public void fault(TaskExecution execution, Fault fault) {
        execution.faulted(fault);
        eventWhileActive(execution.taskId(), fault.code(), fault.description(), null);
    }

    /**
     * Marks the task as worked on and writes its STARTED event unless an earlier run did.
     *
     * @return false if the task is no longer ACTIVE
     */
    @Transactional
    public boolean started(UUID taskId) {
        if (tasks.markStarted(taskId, Instant.now()) == 0) {
            return false;
        }
        if (!events.existsByTaskIdAndCode(taskId, EventCode.STARTED.name())) {
            event(taskId, EventCode.STARTED, "Starting the transfer", null);
        }
        return true;
    }

    /**
     * Writes the plan's totals; counters restart from what earlier runs completed.
     *
     * @return false if the task is no longer ACTIVE
     */
    public boolean planned(TaskExecution execution, TransferPlan plan) {
        execution.startTotals(plan.bytesDone(), plan.filesDone());
        return tasks.recordPlan(
                        execution.taskId(),
                        plan.files(),
                        plan.directories(),
                        plan.filesDone(),
                        plan.bytesDone(),
                        plan.filesSkipped())
                > 0;
    }

    /** @return destination path to size of the files earlier runs of the task moved */
    public Map<String, Long> alreadyTransferred(UUID taskId) {
        Map<String, Long> sizes = new HashMap<>();
        for (TransferredFile file : transferredFiles.findByTaskId(taskId)) {
            sizes.put(file.getDestinationPath(), file.getSizeBytes());
        }
        return sizes;
    }

    /**
     * Writes the counter deltas and arrived files accumulated since the last flush, the nice
     * status if it changed, and a PROGRESS event if the progress interval has passed and the
     * counters moved.
     */
    @Transactional
    public void flush(TaskExecution execution) {
        flush(execution, true);
    }

    private void flush(TaskExecution execution, boolean progressEvent) {
        synchronized (execution) {
            TaskExecution.Deltas deltas = execution.drainDeltas();
            if (!deltas.isEmpty()) {
                tasks.addCounters(
                        execution.taskId(),
                        deltas.bytes(),
                        deltas.files(),
                        0,
                        deltas.files(),
                        deltas.failed(),
                        deltas.faults());
            }
            List<TransferredFile> arrived = execution.drainArrived();
            if (!arrived.isEmpty()) {
                transferredFiles.saveAll(arrived);
            }
            String niceStatus = execution.niceStatus();
            if (!niceStatus.equals(execution.writtenNiceStatus)) {
                tasks.updateNiceStatus(execution.taskId(), niceStatus);
                execution.writtenNiceStatus = niceStatus;
            }
            long now = System.currentTimeMillis();
            long bytes = execution.bytesTotal();
            long files = execution.filesTotal();
            boolean moved = bytes != execution.lastProgressBytes || files != execution.lastProgressFiles;
            if (progressEvent
                    && moved
                    && now - execution.lastProgressMillis >= progressIntervalMillis
                    && !execution.isStopped()) {
                eventWhileActive(
                        execution.taskId(),
                        EventCode.PROGRESS,
                        "Progress update",
                        "{\"bytes_transferred\":" + bytes + ",\"files_transferred\":" + files + "}");
                execution.lastProgressMillis = now;
                execution.lastProgressBytes = bytes;
                execution.lastProgressFiles = files;
            }
        }
    }

    /**
     * Ends the task (first end wins: a cancel that came first is kept).
     *
     * @param execution the execution (flushed first)
     * @param fatal null for SUCCEEDED, else the fatal fault
     * @return true if this call ended the task
     */
    @Transactional
    public boolean finish(TaskExecution execution, Fault fatal) {
        flush(execution, false); // the end event carries the final counters
        UUID taskId = execution.taskId();
        Instant now = Instant.now();
        if (fatal == null) {
            if (tasks.finish(taskId, TaskStatus.SUCCEEDED, null, null, now) == 0) {
                return false;
            }
            event(
                    taskId,
                    EventCode.SUCCEEDED,
                    "The task completed successfully",
                    "{\"bytes_transferred\":" + execution.bytesTotal() + ",\"files_transferred\":"
                            + execution.filesTotal() + "}");
            return true;
        }
        return tasks.finish(taskId, TaskStatus.FAILED, fatal.code().name(), fatal.description(), now) > 0;
    }

    /**
     * Suspends an ACTIVE task (INACTIVE) after writing what its execution moved.
     *
     * @param fault the {@code NO_CREDENTIALS} fault
     * @return true if this call suspended the task
     */
    @Transactional
    public boolean suspend(TaskExecution execution, Fault fault) {
        flush(execution, false);
        return suspend(execution.taskId(), fault);
    }

    /**
     * Suspends an ACTIVE task that has no execution here (its endpoint was not activated when it
     * was to be planned).
     *
     * @param fault the {@code NO_CREDENTIALS} fault
     * @return true if this call suspended the task
     */
    @Transactional
    public boolean suspend(UUID taskId, Fault fault) {
        if (tasks.suspend(taskId, fault.code().name()) == 0) {
            return false;
        }
        event(taskId, fault.code(), fault.description(), null);
        return true;
    }

    /**
     * Makes an INACTIVE task ACTIVE again.
     *
     * @param why the RESUMED event's description
     * @return true if this call resumed it
     */
    @Transactional
    public boolean resume(UUID taskId, String why) {
        if (tasks.resume(taskId) == 0) {
            return false;
        }
        event(taskId, EventCode.RESUMED, why, null);
        return true;
    }

    /**
     * Ends a task whose deadline passed while it was INACTIVE.
     *
     * @return true if this call ended it
     */
    @Transactional
    public boolean expireInactive(UUID taskId) {
        String description = "The task's deadline passed while it was INACTIVE, waiting for an endpoint's activation";
        if (tasks.end(taskId, TaskStatus.FAILED, EventCode.EXPIRED.name(), description, Instant.now()) == 0) {
            return false;
        }
        event(taskId, EventCode.EXPIRED, description, null);
        return true;
    }

    /**
     * Ends a task that has no execution here (e.g. its endpoint was deleted before planning).
     *
     * @return true if this call ended the task
     */
    @Transactional
    public boolean fail(UUID taskId, Fault fatal) {
        if (tasks.finish(taskId, TaskStatus.FAILED, fatal.code().name(), fatal.description(), Instant.now()) == 0) {
            return false; // ended already (a cancel): its end event stays the newest
        }
        event(taskId, fatal.code(), fatal.description(), null);
        return true;
    }
}
