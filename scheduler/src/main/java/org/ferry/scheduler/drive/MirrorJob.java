package org.ferry.scheduler.drive;

import java.io.IOException;
import java.util.Map;
import java.util.UUID;
import org.ferry.api.domain.EventCode;
import org.ferry.api.domain.MirrorState;
import org.ferry.api.domain.PlanState;
import org.ferry.api.domain.Task;
import org.ferry.api.store.FileStore;
import org.ferry.api.store.TaskStore;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.scheduler.plan.MirrorWalk;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
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

    private final JobContext context;

    /** @param context the store, sessions, endpoint access and back-off */
    public MirrorJob(JobContext context) {
        this.context = context;
    }

    /**
     * Deletes the task's destination extras if it is ACTIVE (not backing off), planned, has no file left to move and
     * none failed, then ends it.
     *
     * @param taskId the task
     */
    public void mirror(UUID taskId, TaskJobs.Job job) {
        TaskStore tasks = context.tasks();
        FileStore files = context.files();
        TaskEnding ending = context.ending();
        Task task = context.readyTask(taskId).orElse(null);
        if (task == null
                || task.getPlanState() != PlanState.PLANNED
                || !tasks.mirrorPending(taskId)
                || files.hasOpenFiles(taskId)
                || files.firstFailure(taskId) != null) {
            ending.finishIfDone(taskId);
            return;
        }
        if (task.getSubtasksSkippedErrors() > 0) {
            context.transactions().executeWithoutResult(status -> {
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
        Activations.TaskAccess access = context.activations().accessOrEnd(task).orElse(null);
        if (access == null) {
            return;
        }
        try (GridFtpSession from = context.sessions().open(access.source(), access.protection());
                GridFtpSession to = context.sessions().open(access.destination(), access.protection())) {
            MirrorWalk walk = new MirrorWalk(
                    from,
                    to,
                    task.getFilterRules(),
                    false,
                    () -> job.stopRequested() || context.activeTask(taskId).isEmpty(),
                    (path, directory) -> {
                        Boolean recorded = context.transactions()
                                .execute(status -> tasks.eventIfActive(
                                        taskId,
                                        EventCode.DESTINATION_EXTRA_DELETED,
                                        "Deleted " + (directory ? "directory " : "") + path
                                                + " (the source does not have it: delete_destination_extra)",
                                        JSON.writeValueAsString(
                                                Map.of("path", path, "type", directory ? "dir" : "file"))));
                        if (!Boolean.TRUE.equals(recorded)) {
                            throw new MirrorWalk.StoppedException(); // cancelled or expired meanwhile
                        }
                    });
            long deleted = walk.mirror(context.transferItems().findByTaskIdOrderByItemIndex(taskId));
            Boolean marked = context.transactions().execute(status -> tasks.markMirrored(taskId, MirrorState.DONE));
            log.info("Task {}: {} destination extra(s) deleted", taskId, deleted);
            if (Boolean.TRUE.equals(marked)) {
                ending.finishIfDone(taskId);
            }
        } catch (MirrorWalk.StoppedException e) {
            log.info("Task {} ended while deleting destination extras", taskId);
        } catch (IllegalArgumentException e) {
            ending.fail(taskId, EventCode.ENDPOINT_ERROR.name(), "Endpoint: " + e.getMessage());
        } catch (IOException | RuntimeException e) {
            context.fault(taskId, e, "Deleting destination extras (delete_destination_extra)");
        }
    }
}
