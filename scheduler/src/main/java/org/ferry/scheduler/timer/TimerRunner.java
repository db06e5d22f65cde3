package org.ferry.scheduler.timer;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;
import org.ferry.api.command.TransferSubmission;
import org.ferry.api.domain.Role;
import org.ferry.api.domain.Timer;
import org.ferry.api.domain.TimerRun;
import org.ferry.api.domain.UserAccount;
import org.ferry.api.identity.Caller;
import org.ferry.api.repository.UserAccountRepository;
import org.ferry.api.service.Submission;
import org.ferry.api.service.TimerSchedule;
import org.ferry.api.service.TransferBodies;
import org.ferry.api.service.TransferService;
import org.ferry.scheduler.state.TimerRows;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * One tick of a timer, under the timer row's lock: a tick already recorded does nothing (one row
 * per scheduled time: a tick fired twice, by a restart or by two instances, runs once); a tick
 * while the previous run's task is still ACTIVE or INACTIVE is recorded SKIPPED; otherwise the
 * timer's transfer document is submitted as the owner, with a submission id made from the timer
 * and the tick (so even a repeated submission is a duplicate, never a second task), and the task
 * is recorded as the run. A submission that fails is recorded ERROR. After the last run (its run
 * count, or the trigger's last tick) the timer is {@code ended}.
 */
@Component
public class TimerRunner {

    private static final Logger log = LoggerFactory.getLogger(TimerRunner.class);

    private final TimerRows rows;
    private final TransactionTemplate transactions;
    private final TransferService transfers;
    private final UserAccountRepository accounts;
    private final TimerSchedule schedule;
    private final TransferBodies bodies;

    /**
     * @param rows timer rows
     * @param transactionManager transactions (each tick in its own)
     * @param transfers submits the runs
     * @param accounts the owners
     * @param schedule unschedules ended timers
     * @param bodies reads the stored transfer document, checked as {@code POST /transfer} checks one
     */
    public TimerRunner(
            TimerRows rows,
            PlatformTransactionManager transactionManager,
            TransferService transfers,
            UserAccountRepository accounts,
            TimerSchedule schedule,
            TransferBodies bodies) {
        this.rows = rows;
        this.transactions = new TransactionTemplate(transactionManager);
        this.transactions.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        this.transfers = transfers;
        this.accounts = accounts;
        this.schedule = schedule;
        this.bodies = bodies;
    }

    /**
     * @param timerId the timer
     * @param scheduled the tick's scheduled time
     * @param lastTick true if the trigger has no tick after this one
     */
    public void tick(UUID timerId, Instant scheduled, boolean lastTick) {
        try {
            transactions.executeWithoutResult(status -> run(timerId, scheduled, lastTick));
        } catch (RuntimeException e) {
            log.warn(
                    "Timer {}: the run of the tick at {} could not be submitted: {}", timerId, scheduled, e.toString());
            transactions.executeWithoutResult(status -> {
                if (rows.lockActive(timerId) && !rows.recorded(timerId, scheduled)) {
                    rows.record(timerId, scheduled, TimerRun.ERROR, null, String.valueOf(e.getMessage()));
                    endIf(timerId, lastTick);
                }
            });
        }
    }

    private void run(UUID timerId, Instant scheduled, boolean lastTick) {
        if (!rows.lockActive(timerId)) {
            return;
        }
        if (rows.recorded(timerId, scheduled)) {
            log.info("Timer {}: tick at {} already recorded; not run again", timerId, scheduled);
            return;
        }
        UUID previous = rows.previousTask(timerId);
        if (previous != null) {
            String status = rows.taskStatus(previous);
            if ("ACTIVE".equals(status) || "INACTIVE".equals(status)) {
                rows.record(
                        timerId,
                        scheduled,
                        TimerRun.SKIPPED,
                        null,
                        "The previous run (task " + previous + ") was still " + status);
                log.info("Timer {}: tick at {} skipped, task {} still running", timerId, scheduled, previous);
                endIf(timerId, lastTick);
                return;
            }
        }
        TimerRows.TimerFacts timer = rows.facts(timerId);
        UserAccount account = accounts.findByName(timer.ownerName())
                .filter(a -> !a.isDisabled())
                .orElseThrow(() ->
                        new IllegalStateException("The timer's owner " + timer.ownerName() + " has no active account"));
        TransferSubmission body = bodies.read(timer.body());
        String name = timer.name();
        TransferSubmission run = new TransferSubmission(
                submissionId(timerId, scheduled).toString(),
                body.sourceEndpoint(),
                body.destinationEndpoint(),
                body.label() != null
                        ? body.label()
                        : name.length() > 128 ? name.substring(0, 128).strip() : name,
                body.deadline(),
                body.items(),
                body.options(),
                // the timer's notify_on decides the run's mail: a failed or INACTIVE run always needs a person
                new TransferSubmission.Notify(Timer.NOTIFY_EVERY_RUN.equals(timer.notifyOn()), true, true),
                body.skipActivationCheck(),
                body.additionalDestinationEndpoints());
        Submission submission =
                transfers.submit(new Caller(account.getId(), timer.ownerName(), account.getRole() == Role.ADMIN), run);
        UUID taskId = submission.taskId();
        rows.record(timerId, scheduled, TimerRun.SUBMITTED, taskId, null);
        int runs = timer.numberOfRuns() + 1;
        log.info("Timer {}: tick at {} submitted task {} (run {})", timerId, scheduled, taskId, runs);
        endIf(timerId, lastTick || (timer.maxRuns() != null && runs >= timer.maxRuns()));
    }

    private void endIf(UUID timerId, boolean end) {
        if (end) {
            rows.end(timerId);
            schedule.unschedule(timerId);
            log.info("Timer {} ended", timerId);
        }
    }

    /** The same timer and tick always give the same submission id. */
    static UUID submissionId(UUID timerId, Instant scheduled) {
        return UUID.nameUUIDFromBytes(
                ("ferry-timer:" + timerId + "@" + scheduled.toEpochMilli()).getBytes(StandardCharsets.UTF_8));
    }
}
