package org.ferry.scheduler.drive;

import java.io.IOException;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.ferry.api.credential.ActivationRequiredException;
import org.ferry.api.domain.EventCode;
import org.ferry.api.domain.PlanState;
import org.ferry.api.domain.Task;
import org.ferry.api.store.FileStore;
import org.ferry.api.store.NewTask;
import org.ferry.api.store.PlannedFile;
import org.ferry.api.store.TaskStore;
import org.ferry.mover.access.CredentialExpiredException;
import org.ferry.mover.access.EndpointAccess;
import org.ferry.mover.access.IdleSessionPairs;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.scheduler.plan.PlanTotals;
import org.ferry.scheduler.plan.PlanningException;
import org.ferry.scheduler.plan.TaskPlanner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Plans one task: crawls its items with a {@link TaskPlanner} and writes the file rows in batches
 * of {@value #BATCH} (never the whole list in memory), then marks it PLANNED. A planning cut short
 * (a crash, a fault) leaves the task NEW and starts again from scratch: no chunk of the task was
 * dispatched before it was PLANNED, so no destination file of it can be partial then. A transient
 * fault backs the task off (it stays ACTIVE and says why); a permanent one fails it; a missing or
 * expired endpoint credential suspends it (INACTIVE, {@link Activations}). A planning asked to stop
 * (its task cancelled, ended, or driven by another instance now) stops at its next file and writes
 * nothing more: neither rows nor a plan nor a fault.
 */
@Component
public class PlanningJob {

    /** File rows per insert batch. */
    static final int BATCH = 1000;

    private static final Logger log = LoggerFactory.getLogger(PlanningJob.class);

    private final JobContext context;

    /** The job was asked to stop: unwinds the crawl. */
    private static final class Stopped extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Stopped() {
            super("planning stopped", null, false, false);
        }
    }

    /** @param context the store, sessions, endpoint access and back-off */
    public PlanningJob(JobContext context) {
        this.context = context;
    }

    /**
     * Plans the task if it is ACTIVE, not backing off and not planned yet.
     *
     * @param taskId the task
     * @param stopRequested true once the planning must stop ({@link TaskJobs.Job#stopRequested}),
     *     asked before each file is written
     * @return true if the task is planned now
     */
    public boolean plan(UUID taskId, BooleanSupplier stopRequested) {
        Task task = context.readyTask(taskId).orElse(null);
        if (task == null || task.getPlanState() == PlanState.PLANNED) {
            return false;
        }
        TaskStore tasks = context.tasks();
        FileStore files = context.files();
        TransactionTemplate transactions = context.transactions();
        // one commit: started, and the rows of a planning cut short before gone (this one starts
        // from scratch)
        Boolean started = transactions.execute(status -> {
            if (!tasks.markStarted(taskId, Instant.now())) {
                return false;
            }
            files.deleteAll(taskId);
            return true;
        });
        if (!Boolean.TRUE.equals(started)) {
            return false;
        }
        Activations.TaskAccess access = context.activations().accessOrEnd(task).orElse(null);
        if (access == null) {
            return false;
        }
        List<PlannedFile> batch = new ArrayList<>();
        IdleSessionPairs.Key key = new IdleSessionPairs.Key(access.source(), access.destination(), access.protection());
        IdleSessionPairs.Pair idle = context.idleSessions().take(key);
        GridFtpSession from = idle == null ? null : idle.source();
        GridFtpSession to = idle == null ? null : idle.destination();
        boolean inStep = false; // the sessions' last command completed: they may be given back for the chunks
        List<GridFtpSession> further = new ArrayList<>();
        try {
            if (from == null) {
                from = context.sessions().open(access.source(), access.protection());
                to = context.sessions().open(access.destination(), access.protection());
            }
            // multicast: the directory tree (empty directories too) is made at every destination
            for (NewTask.Destination extra : tasks.additionalDestinations(taskId)) {
                further.add(context.sessions()
                        .open(
                                context.activations()
                                        .accessOf(task.getOwnerName(), extra.endpointId(), extra.endpoint()),
                                access.protection()));
            }
            TaskPlanner planner = new TaskPlanner(
                    from,
                    to,
                    further,
                    task.getSyncLevel(),
                    task.isSkipSourceErrors(),
                    task.getFilterRules(),
                    false,
                    task.getChecksumAlgorithm(),
                    file -> {
                        if (stopRequested.getAsBoolean()) {
                            throw new Stopped();
                        }
                        batch.add(file);
                        if (batch.size() >= BATCH) {
                            flush(taskId, batch);
                        }
                    });
            PlanTotals totals = planner.plan(context.transferItems().findByTaskIdOrderByItemIndex(taskId));
            inStep = true;
            if (stopRequested.getAsBoolean()) {
                throw new Stopped();
            }
            // the last rows and the plan in one commit (a one-file task: one commit, not two)
            List<PlannedFile> last = List.copyOf(batch);
            batch.clear();
            Boolean recorded = transactions.execute(status -> {
                if (!last.isEmpty()) {
                    files.insert(taskId, last);
                }
                return tasks.recordPlan(
                        taskId, totals.files(), totals.directories(), totals.filesSkipped(), totals.skippedErrors());
            });
            if (!Boolean.TRUE.equals(recorded)) {
                return false;
            }
            if (from.dialsOut() && to.dialsOut()) {
                String relay = relayOf(access.destination());
                transactions.executeWithoutResult(status -> tasks.eventIfActive(
                        taskId,
                        EventCode.DATA_RELAYED,
                        "The Ferry Connect relay at " + relay + " carries this task's data: "
                                + task.getSourceEndpoint() + " and " + task.getDestinationEndpoint()
                                + " are agents that accept no inbound connection",
                        "{\"relay\":\"" + relay + "\"}"));
            }
            if (totals.skippedErrors() > 0) {
                transactions.executeWithoutResult(status -> tasks.eventIfActive(
                        taskId,
                        EventCode.SKIPPED_ERRORS,
                        totals.skippedErrors() + " source path(s) skipped for errors (skip_source_errors)",
                        null));
            }
            log.info(
                    "Planned task {}: {} files ({} to move, {} current, {} skipped for errors), {} directories,"
                            + " {} excluded by filter rules",
                    taskId,
                    totals.files(),
                    totals.toMove(),
                    totals.filesSkipped(),
                    totals.skippedErrors(),
                    totals.directories(),
                    totals.excluded());
            if (totals.toMove() == 0) {
                context.ending().finishIfDone(taskId);
            }
            return true;
        } catch (Stopped e) {
            log.info("Planning of task {} stopped: the task ended or another instance drives it", taskId);
            return false;
        } catch (PlanningException e) {
            context.ending().fail(taskId, e.code().name(), e.getMessage());
            return false;
        } catch (CredentialExpiredException e) {
            context.activations().suspend(taskId, e.getMessage());
            return false;
        } catch (ActivationRequiredException e) {
            context.activations().suspend(taskId, e.getMessage()); // a further destination's
            return false;
        } catch (IOException | RuntimeException e) {
            inStep = false; // a command after the planning may have failed on a session too
            context.fault(taskId, e, "Listing the source and preparing the destination");
            return false;
        } finally {
            further.forEach(PlanningJob::closeQuietly);
            release(key, from, to, inStep);
        }
    }

    /** Gives sessions in step back for the task's chunks; closes them after a fault (unknown state). */
    private void release(IdleSessionPairs.Key key, GridFtpSession from, GridFtpSession to, boolean inStep) {
        if (inStep) {
            context.idleSessions().giveBack(key, new IdleSessionPairs.Pair(from, to));
            return;
        }
        for (GridFtpSession session : new GridFtpSession[] {from, to}) {
            if (session != null) {
                try {
                    session.close();
                } catch (IOException | RuntimeException ignored) {
                    // a session after a fault: closing is all that is left to do
                }
            }
        }
    }

    /**
     * @param agent a personal endpoint's access: its one server is the agent's control port on the
     *     relay's forward host, where the relay also opens the agent's passive ports
     * @return that host
     */
    private static String relayOf(EndpointAccess agent) {
        String host = URI.create(agent.servers().get(0).url()).getHost();
        return host == null ? "?" : host.replace("\"", "");
    }

    private static void closeQuietly(GridFtpSession session) {
        try {
            session.close();
        } catch (IOException | RuntimeException e) {
            log.debug("Closing a further destination's session: {}", e.toString());
        }
    }

    private void flush(UUID taskId, List<PlannedFile> batch) {
        if (!batch.isEmpty()) {
            List<PlannedFile> rows = List.copyOf(batch);
            context.transactions()
                    .executeWithoutResult(status -> context.files().insert(taskId, rows));
            batch.clear();
        }
    }
}
