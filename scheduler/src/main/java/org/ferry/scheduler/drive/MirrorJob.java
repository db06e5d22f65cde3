package org.ferry.scheduler.drive;

import java.io.IOException;
import java.util.Map;
import java.util.UUID;
import org.ferry.api.domain.EventCode;
import org.ferry.api.domain.MirrorState;
import org.ferry.api.domain.PlanState;
import org.ferry.api.domain.Task;
import org.ferry.api.domain.TransferItem;
import org.ferry.api.store.FileStore;
import org.ferry.api.store.TaskStore;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.scheduler.plan.MirrorWalk;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * The steps after every file of a task arrived and none failed: {@code ferry_verify_tree_digest}'s
 * comparison of whole trees (below), and first {@code delete_destination_extra}: a
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

    /** The CKSM algorithm of whole trees (ferry-gridftp's built-in TreeDigest, bin/ferry-treedigest). */
    static final String TREE_DIGEST = "SHA256-TREE";

    private final JobContext context;

    /** @param context the store, sessions, endpoint access and back-off */
    public MirrorJob(JobContext context) {
        this.context = context;
    }

    /**
     * Deletes the task's destination extras and compares its trees' digests, as it asks, if it is
     * ACTIVE (not backing off), planned, has no file left to move and none failed, then ends it.
     *
     * @param taskId the task
     * @param job the job this runs in (asked whether to stop)
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
        if (task.isDeleteDestinationExtra() && task.getSubtasksSkippedErrors() > 0) {
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
            if (task.isDeleteDestinationExtra()) {
                deleteExtras(taskId, task, job, from, to);
            }
            if (task.isVerifyTreeDigest() && !treesAgree(taskId, from, to)) {
                return; // the task failed
            }
            Boolean marked = context.transactions().execute(status -> tasks.markMirrored(taskId, MirrorState.DONE));
            if (Boolean.TRUE.equals(marked)) {
                ending.finishIfDone(taskId);
            }
        } catch (MirrorWalk.StoppedException e) {
            log.info("Task {} ended while deleting destination extras", taskId);
        } catch (IllegalArgumentException e) {
            ending.fail(taskId, EventCode.ENDPOINT_ERROR.name(), "Endpoint: " + e.getMessage());
        } catch (IOException | RuntimeException e) {
            context.fault(
                    taskId,
                    e,
                    task.isDeleteDestinationExtra()
                            ? "Deleting destination extras (delete_destination_extra)"
                            : "Comparing tree digests (ferry_verify_tree_digest)");
        }
    }

    /**
     * {@code ferry_verify_tree_digest}: each recursive item's tree digest ({@code CKSM SHA256-TREE
     * 0 -1 DIR}, the SHA-256 of a sorted manifest of every regular file's SHA-256) asked of both
     * servers, one command per side instead of one CKSM per file. Equal digests write
     * {@code TREE_DIGEST_VERIFIED}; a difference fails the task with {@code VERIFY_CHECKSUM} naming
     * the directory and both digests (the files are not sent again: a tree-wide difference names no
     * file).
     *
     * @return true if every tree agrees
     */
    private boolean treesAgree(UUID taskId, GridFtpSession from, GridFtpSession to) throws IOException {
        TaskStore tasks = context.tasks();
        for (TransferItem item : context.transferItems().findByTaskIdOrderByItemIndex(taskId)) {
            if (!item.isRecursive()) {
                continue;
            }
            String source = from.checksum(TREE_DIGEST, item.getSourcePath());
            String destination = to.checksum(TREE_DIGEST, item.getDestinationPath());
            if (!source.equalsIgnoreCase(destination)) {
                context.ending()
                        .fail(
                                taskId,
                                EventCode.VERIFY_CHECKSUM.name(),
                                TREE_DIGEST + " of the tree " + item.getSourcePath() + " is " + source
                                        + " at the source and " + destination + " at the destination "
                                        + item.getDestinationPath()
                                        + " (ferry_verify_tree_digest): a file differs, is missing or is extra");
                return false;
            }
            Boolean recorded = context.transactions()
                    .execute(status -> tasks.eventIfActive(
                            taskId,
                            EventCode.TREE_DIGEST_VERIFIED,
                            TREE_DIGEST + " of " + item.getSourcePath() + " and " + item.getDestinationPath() + " is "
                                    + source,
                            JSON.writeValueAsString(Map.of(
                                    "source_path",
                                    item.getSourcePath(),
                                    "destination_path",
                                    item.getDestinationPath(),
                                    "algorithm",
                                    TREE_DIGEST,
                                    "checksum",
                                    source))));
            if (!Boolean.TRUE.equals(recorded)) {
                return false; // cancelled or expired meanwhile
            }
        }
        return true;
    }

    /** {@code delete_destination_extra}: a {@link MirrorWalk} deletes what the source lacks. */
    private void deleteExtras(UUID taskId, Task task, TaskJobs.Job job, GridFtpSession from, GridFtpSession to)
            throws IOException {
        TaskStore tasks = context.tasks();
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
                                    JSON.writeValueAsString(Map.of("path", path, "type", directory ? "dir" : "file"))));
                    if (!Boolean.TRUE.equals(recorded)) {
                        throw new MirrorWalk.StoppedException(); // cancelled or expired meanwhile
                    }
                });
        long deleted = walk.mirror(context.transferItems().findByTaskIdOrderByItemIndex(taskId));
        log.info("Task {}: {} destination extra(s) deleted", taskId, deleted);
    }
}
