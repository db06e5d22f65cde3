package org.ferry.scheduler.drive;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.ferry.api.domain.EventCode;
import org.ferry.api.domain.PlanState;
import org.ferry.api.domain.Task;
import org.ferry.api.domain.TaskStatus;
import org.ferry.api.repository.TaskRepository;
import org.ferry.api.repository.TransferItemRepository;
import org.ferry.api.store.FileStore;
import org.ferry.api.store.PlannedFile;
import org.ferry.api.store.TaskStore;
import org.ferry.mover.access.CredentialExpiredException;
import org.ferry.mover.access.EndpointSessions;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.runner.Faults;
import org.ferry.mover.runner.MoverFault;
import org.ferry.scheduler.TransferProperties;
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
 * expired endpoint credential suspends it (INACTIVE, {@link Activations}).
 */
@Component
public class PlanningJob {

    /** File rows per insert batch. */
    static final int BATCH = 1000;

    private static final Logger log = LoggerFactory.getLogger(PlanningJob.class);

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
     * @param sessions opens the planner's sessions with the owner's endpoint access
     * @param activations the owners' endpoint access, and suspensions for missing credentials
     * @param properties back-off
     */
    public PlanningJob(
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
     * Plans the task if it is ACTIVE and not planned yet.
     *
     * @param taskId the task
     * @return true if the task is planned now
     */
    public boolean plan(UUID taskId) {
        Task task = taskRepository.findById(taskId).orElse(null);
        if (task == null || task.getStatus() != TaskStatus.ACTIVE || task.getPlanState() == PlanState.PLANNED) {
            return false;
        }
        Boolean started = transactions.execute(status -> tasks.markStarted(taskId, Instant.now()));
        if (!Boolean.TRUE.equals(started)) {
            return false;
        }
        Activations.TaskAccess access = activations.accessOrEnd(task).orElse(null);
        if (access == null) {
            return false;
        }
        transactions.executeWithoutResult(status -> files.deleteAll(taskId));
        List<PlannedFile> batch = new ArrayList<>();
        try (GridFtpSession from = sessions.open(access.source(), access.protection());
                GridFtpSession to = sessions.open(access.destination(), access.protection())) {
            TaskPlanner planner = new TaskPlanner(
                    from, to, task.getSyncLevel(), task.isSkipSourceErrors(), task.getFilterRules(), false, file -> {
                        batch.add(file);
                        if (batch.size() >= BATCH) {
                            flush(taskId, batch);
                        }
                    });
            PlanTotals totals = planner.plan(items.findByTaskIdOrderByItemIndex(taskId));
            flush(taskId, batch);
            Boolean recorded = transactions.execute(status -> tasks.recordPlan(
                    taskId, totals.files(), totals.directories(), totals.filesSkipped(), totals.skippedErrors()));
            if (!Boolean.TRUE.equals(recorded)) {
                return false;
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
                ending.finishIfDone(taskId);
            }
            return true;
        } catch (PlanningException e) {
            transactions.executeWithoutResult(status -> tasks.eventIfActive(taskId, e.code(), e.getMessage(), null));
            ending.fail(taskId, e.code().name(), e.getMessage());
            return false;
        } catch (CredentialExpiredException e) {
            activations.suspend(taskId, e.getMessage());
            return false;
        } catch (IOException | RuntimeException e) {
            MoverFault fault = Faults.classify(e, "Listing the source and preparing the destination");
            if (fault.isPermanent()) {
                ending.fail(taskId, fault.code().name(), fault.description());
                return false;
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
            return false;
        }
    }

    private void flush(UUID taskId, List<PlannedFile> batch) {
        if (!batch.isEmpty()) {
            List<PlannedFile> rows = List.copyOf(batch);
            transactions.executeWithoutResult(status -> files.insert(taskId, rows));
            batch.clear();
        }
    }
}
