package org.ferry.scheduler.drive;

import java.io.IOException;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.ferry.api.domain.EventCode;
import org.ferry.api.domain.MirrorState;
import org.ferry.api.domain.PlanState;
import org.ferry.api.domain.Task;
import org.ferry.api.domain.TaskStatus;
import org.ferry.api.repository.TaskRepository;
import org.ferry.api.repository.TransferItemRepository;
import org.ferry.api.store.FileStore;
import org.ferry.api.store.TaskStore;
import org.ferry.mover.access.EndpointSessions;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.runner.Faults;
import org.ferry.mover.runner.MoverFault;
import org.ferry.scheduler.TransferProperties;
import org.ferry.scheduler.plan.MirrorWalk;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code delete_destination_extra} for one task, after every file arrived and none failed: a
 * {@link MirrorWalk} deletes the destination's extras under the recursive items, writing one
 * {@code DESTINATION_EXTRA_DELETED} event per deleted path; then the task may end SUCCEEDED. A
 * task that skipped source errors deletes nothing ({@code DELETE_DESTINATION_EXTRA_SKIPPED}): a
 * source path that could not be read must not cost its copy. A transient fault backs the task
 * off and the walk runs again later (deleting is idempotent); a permanent one fails the task.
 */
@Component
public class MirrorJob {

    private static final Logger log = LoggerFactory.getLogger(MirrorJob.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final TaskRepository taskRepository;
    private final TransferItemRepository items;
    private final TaskStore tasks;
    private final FileStore files;
    private final TransactionTemplate transactions;
    private final TaskEnding ending;
    private final EndpointSessions sessions;
    private final Activations activations;
    private final TransferProperties properties;

    /**
     * @param taskRepository tasks
     * @param items transfer items
     * @param tasks task rows
     * @param files file rows
     * @param transactions transactions
     * @param ending ends tasks
     * @param sessions opens the sessions
     * @param activations the owner's endpoint access, and suspensions for missing credentials
     * @param properties back-off
     */
    public MirrorJob(
            TaskRepository taskRepository,
            TransferItemRepository items,
            TaskStore tasks,
            FileStore files,
            TransactionTemplate transactions,
            TaskEnding ending,
            EndpointSessions sessions,
            Activations activations,
            TransferProperties properties) {
        this.taskRepository = taskRepository;
        this.items = items;
        this.tasks = tasks;
        this.files = files;
        this.transactions = transactions;
        this.ending = ending;
        this.sessions = sessions;
        this.activations = activations;
        this.properties = properties;
    }

    /**
     * Deletes the task's destination extras if it is ACTIVE, planned, has no file left to move and
     * none failed, then ends it.
     *
     * @param taskId the task
     */
    public void mirror(UUID taskId) {
        Task task = taskRepository.findById(taskId).orElse(null);
        if (task == null
                || task.getStatus() != TaskStatus.ACTIVE
                || task.getPlanState() != PlanState.PLANNED
                || !tasks.mirrorPending(taskId)
                || files.hasOpenFiles(taskId)
                || files.firstFailure(taskId) != null) {
            ending.finishIfDone(taskId);
            return;
        }
        if (task.getSubtasksSkippedErrors() > 0) {
            transactions.executeWithoutResult(status -> {
                if (tasks.eventIfActive(
                        taskId,
                        EventCode.DELETE_DESTINATION_EXTRA_SKIPPED,
                        "Destination extras were not deleted: " + task.getSubtasksSkippedErrors()
                                + " source path(s) were skipped for errors",
                        null)) {
                    tasks.markMirrored(taskId, MirrorState.SKIPPED);
                }
            });
            ending.finishIfDone(taskId);
            return;
        }
        Activations.TaskAccess access = activations.accessOrEnd(task).orElse(null);
        if (access == null) {
            return;
        }
        try (GridFtpSession from = sessions.open(access.source(), access.protection());
                GridFtpSession to = sessions.open(access.destination(), access.protection())) {
            MirrorWalk walk =
                    new MirrorWalk(from, to, task.getFilterRules(), false, () -> !active(taskId), (path, directory) -> {
                        Boolean recorded = transactions.execute(status -> tasks.eventIfActive(
                                taskId,
                                EventCode.DESTINATION_EXTRA_DELETED,
                                "Deleted " + (directory ? "directory " : "") + path
                                        + " (the source does not have it: delete_destination_extra)",
                                JSON.writeValueAsString(Map.of("path", path, "type", directory ? "dir" : "file"))));
                        if (!Boolean.TRUE.equals(recorded)) {
                            throw new MirrorWalk.StoppedException(); // cancelled or expired meanwhile
                        }
                    });
            long deleted = walk.mirror(items.findByTaskIdOrderByItemIndex(taskId));
            Boolean marked = transactions.execute(status -> tasks.markMirrored(taskId, MirrorState.DONE));
            log.info("Task {}: {} destination extra(s) deleted", taskId, deleted);
            if (Boolean.TRUE.equals(marked)) {
                ending.finishIfDone(taskId);
            }
        } catch (MirrorWalk.StoppedException e) {
            log.info("Task {} ended while deleting destination extras", taskId);
        } catch (IllegalArgumentException e) {
            ending.fail(taskId, EventCode.ENDPOINT_ERROR.name(), "Endpoint: " + e.getMessage());
        } catch (IOException | RuntimeException e) {
            MoverFault fault = Faults.classify(e, "Deleting destination extras (delete_destination_extra)");
            if (fault.isPermanent()) {
                transactions.executeWithoutResult(status -> tasks.eventIfActive(
                        taskId, EventCode.valueOf(fault.code().name()), fault.description(), null));
                ending.fail(taskId, fault.code().name(), fault.description());
                return;
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
        }
    }

    private boolean active(UUID taskId) {
        return taskRepository
                .findById(taskId)
                .map(t -> t.getStatus() == TaskStatus.ACTIVE)
                .orElse(false);
    }
}
