package org.ferry.scheduler.drive;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.ferry.api.credential.ActivationRequiredException;
import org.ferry.api.domain.DeleteItem;
import org.ferry.api.domain.EventCode;
import org.ferry.api.domain.Task;
import org.ferry.mover.access.CredentialExpiredException;
import org.ferry.mover.access.EndpointAccess;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.mover.runner.Faults;
import org.ferry.mover.runner.MoverFault;
import org.ferry.scheduler.plan.DeleteWalk;
import org.ferry.scheduler.plan.PlanningException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Runs one DELETE task on the instance that holds its lease, as the engine's delete step starts
 * it: for each path in order, removes it over one GridFTP session to the endpoint (recursively when
 * the task says so). A missing path fails the task with {@code FILE_NOT_FOUND} unless
 * {@code ignore_missing} (or a run before this one got that far: a takeover or a retry finds the
 * paths it removed gone), a directory without {@code recursive} with {@code NOT_A_FILE}, a refused
 * one with {@code PERMISSION_DENIED}. A transient fault (a broken connection, a timeout) backs the
 * task off and the engine runs it again, from the first path, until
 * {@code ferry.transfer.max-attempts} faults in a row fail it.
 *
 * <p>What it removed is counted in the task row as it goes ({@code files}, {@code directories}),
 * fenced by the lease: a count refused because another instance drives the task now (this one
 * lost its lease), or because the task ended or was suspended, stops the walk at once. So two
 * instances never walk one task past one GridFTP command, and a task whose server died is taken
 * over by the next instance that leases it, and ends right.
 */
@Component
public class DeleteJob {

    private static final Logger log = LoggerFactory.getLogger(DeleteJob.class);

    private final JobContext context;

    /** @param context the store, sessions, endpoint access and back-off */
    public DeleteJob(JobContext context) {
        this.context = context;
    }

    /**
     * Deletes the task's paths if it is an ACTIVE delete task this instance drives, not backing off.
     *
     * @param taskId the task
     * @param instance this instance's lease name
     * @param job the job's handle (stopped by a cancel, a suspension or a lost lease)
     */
    public void run(UUID taskId, String instance, TaskJobs.Job job) {
        Task task = context.readyTask(taskId).orElse(null);
        if (task == null) {
            return;
        }
        EndpointAccess login;
        try {
            login = context.activations()
                    .accessOf(task.getOwnerName(), task.getSourceEndpointId(), task.getSourceEndpoint());
        } catch (PlanningException e) {
            context.ending().fail(taskId, e.code().name(), e.getMessage());
            return;
        } catch (ActivationRequiredException e) {
            context.activations().suspend(taskId, e.getMessage());
            return;
        }
        // a run after an earlier one (a takeover, a retry, or resumed after INACTIVE) finds the
        // paths that run removed gone: not an error then
        boolean earlierRun = task.getStartTime() != null;
        if (!Boolean.TRUE.equals(
                context.transactions().execute(status -> context.tasks().markStarted(taskId, Instant.now())))) {
            return;
        }
        log.info("Delete task {} runs on {}{}", taskId, instance, earlierRun ? " (again)" : "");
        List<DeleteItem> paths = context.deleteItems().findByTaskIdOrderByItemIndex(taskId);
        Instant deadline = task.getDeadline();
        DeleteWalk.Progress progress = directory -> {
            Boolean counted = context.transactions()
                    .execute(status ->
                            context.tasks().countDeleted(taskId, instance, directory ? 0 : 1, directory ? 1 : 0));
            if (!Boolean.TRUE.equals(counted)) {
                throw new DeleteWalk.StoppedException(); // ended, suspended, or driven elsewhere now
            }
        };
        String current = paths.isEmpty() ? null : paths.get(0).getPath();
        try (GridFtpSession session = context.sessions().open(login, ProtectionLevel.CLEAR)) {
            DeleteWalk walk = new DeleteWalk(
                    session,
                    task.isDeleteRecursive(),
                    () -> job.stopRequested()
                            || (deadline != null && Instant.now().isAfter(deadline)),
                    progress);
            for (DeleteItem item : paths) {
                current = item.getPath();
                if (!walk.delete(current) && !task.isIgnoreMissing() && !earlierRun) {
                    context.ending()
                            .fail(taskId, EventCode.FILE_NOT_FOUND.name(), "No such file or directory: " + current);
                    return;
                }
            }
        } catch (DeleteWalk.StoppedException e) {
            // cancelled, suspended, past its deadline (the engine ends it), or taken over
            log.info("Delete task {} stopped on {}", taskId, instance);
            return;
        } catch (DeleteWalk.NotRecursiveException e) {
            context.ending().fail(taskId, EventCode.NOT_A_FILE.name(), e.getMessage());
            return;
        } catch (CredentialExpiredException e) {
            context.activations().suspend(taskId, e.getMessage());
            return;
        } catch (IOException | RuntimeException e) {
            fault(taskId, e, "Deleting " + current);
            return;
        }
        if (context.ending().succeed(taskId)) {
            log.info("Delete task {} succeeded", taskId);
        }
    }

    /** A permanent fault, or the last of max-attempts transient ones in a row, fails the task. */
    private void fault(UUID taskId, Exception e, String doing) {
        MoverFault fault = Faults.classify(e, doing);
        int consecutive = context.tasks().consecutiveFaults(taskId) + 1;
        if (!fault.isPermanent() && consecutive >= context.properties().maxAttempts()) {
            context.ending().fail(taskId, fault.code().name(), fault.description());
            return;
        }
        context.fault(taskId, e, doing);
    }
}
