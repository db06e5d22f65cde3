package org.ferry.scheduler.drive;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.ferry.api.lifecycle.DeleteSubmittedEvent;
import org.ferry.api.lifecycle.TaskCancelRequestedEvent;
import org.ferry.api.lifecycle.TaskDeadlineChangedEvent;
import org.ferry.api.lifecycle.TaskSubmittedEvent;
import org.ferry.api.store.FileStore;
import org.ferry.api.store.LeasedTask;
import org.ferry.api.store.TaskStore;
import org.ferry.scheduler.TransferProperties;
import org.ferry.scheduler.queue.WorkQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionalEventListener;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The one task engine, for transfer and delete tasks alike. Once per tick interval, and at once
 * on a submission, a cancel, a deadline change, a chunk's end or a job's end, it takes and renews
 * the leases of ACTIVE tasks (several ferry-server instances may share one database; the lease
 * decides which one drives a task, and an instance that stops renewing loses its tasks to
 * another after the lease time; a pass woken sooner than a tick interval after the last renewal
 * reads the live leases it holds instead of renewing them), then runs its named steps in order on
 * the leased tasks:
 *
 * <ol>
 *   <li>{@code fence}: stop the work here of tasks another instance drives now ({@link FenceStep});
 *   <li>{@code deadlines}: fail tasks past their deadline, INACTIVE ones too ({@link DeadlineStep});
 *   <li>{@code plan}: crawl unplanned transfers into file rows, on a job ({@link PlanStep});
 *   <li>{@code delete}: walk delete tasks, on a job ({@link DeleteStep});
 *   <li>{@code finish}: end transfers with nothing left to move, or delete a mirror's extras
 *       first ({@link FinishStep});
 *   <li>{@code lost-chunks}: offer again the files of chunks whose mover went silent
 *       ({@link LostChunkStep});
 *   <li>{@code dispatch}: cut chunks fairly and hand them to the work queue ({@link Dispatcher});
 *   <li>{@code progress}: PROGRESS events ({@link ProgressStep});
 *   <li>{@code credential-sweep}: delete expired endpoint credentials ({@link ExpiredCredentialSweep}).
 * </ol>
 *
 * <p>It owns the lifecycle of the result applier and the work queue: it starts the applier, then
 * the queue with the applier as its results port ({@link org.ferry.scheduler.queue.MoverResults}),
 * then its own loop; it stops them the other way round. INACTIVE tasks are not leased.
 */
@Component
public class TaskEngine implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(TaskEngine.class);

    private final TaskStore tasks;
    private final FileStore files;
    private final TransactionTemplate transactions;
    private final ResultApplier applier;
    private final WorkQueue queue;
    private final TaskJobs jobs;
    private final TaskEnding ending;
    private final Wakeup wakeup;
    private final TransferProperties properties;
    private final List<TickStep> steps;
    private final PlanStep plan;
    private final DeleteStep delete;
    private final Clock clock;
    private final String instance;

    private volatile long lastRenewMillis = System.currentTimeMillis();
    private Instant renewedAt;
    private long renewedNanos;
    private boolean fenced;
    private Thread loop;
    private volatile boolean running;
    private boolean firstTick = true;

    /**
     * @param tasks the task store (leases)
     * @param files the file store (a cancel ends the task's chunks)
     * @param transactions transactions
     * @param applier applies the movers' results
     * @param queue the work queue
     * @param jobs the steps' long work
     * @param ending stops a cancelled task's work
     * @param wakeup wake-ups
     * @param properties intervals and the lease
     * @param fence step 1
     * @param deadlines step 2
     * @param plan step 3
     * @param delete step 4
     * @param finish step 5
     * @param lostChunks step 6
     * @param dispatch step 7
     * @param progress step 8
     * @param credentialSweep step 9
     * @param optimize step 10
     * @param clock the time a pass runs at (the application's clock, which endpoint credentials
     *     are judged by too)
     * @param instanceId this instance's lease name ({@code ferry.scheduler.instance-id}; default:
     *     host name and FERRY_HOME, so that a restarted server takes its own leases back at once)
     * @param ferryHome the state directory
     */
    public TaskEngine(
            TaskStore tasks,
            FileStore files,
            TransactionTemplate transactions,
            ResultApplier applier,
            WorkQueue queue,
            TaskJobs jobs,
            TaskEnding ending,
            Wakeup wakeup,
            TransferProperties properties,
            FenceStep fence,
            DeadlineStep deadlines,
            PlanStep plan,
            DeleteStep delete,
            FinishStep finish,
            LostChunkStep lostChunks,
            Dispatcher dispatch,
            ProgressStep progress,
            ExpiredCredentialSweep credentialSweep,
            OptimizerStep optimize,
            Clock clock,
            @Value("${ferry.scheduler.instance-id:}") String instanceId,
            @Value("${ferry.home:.}") String ferryHome) {
        this.tasks = tasks;
        this.files = files;
        this.transactions = transactions;
        this.applier = applier;
        this.queue = queue;
        this.jobs = jobs;
        this.ending = ending;
        this.wakeup = wakeup;
        this.properties = properties;
        this.steps = List.of(
                fence, deadlines, plan, delete, finish, lostChunks, dispatch, progress, credentialSweep, optimize);
        this.plan = plan;
        this.delete = delete;
        this.clock = clock;
        this.instance = instanceId.isBlank() ? hostName() + ":" + ferryHome : instanceId;
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    /** @return this instance's lease name */
    public String instance() {
        return instance;
    }

    /** @return the names of the steps of a pass, in order */
    public List<String> stepNames() {
        return steps.stream().map(TickStep::name).toList();
    }

    @Override
    public synchronized void start() {
        applier.start();
        queue.start(applier);
        running = true;
        loop = new Thread(this::run, "ferry-scheduler");
        loop.setDaemon(true);
        loop.start();
        log.info("Task engine {} started: {}", instance, String.join(", ", stepNames()));
    }

    @Override
    public synchronized void stop() {
        running = false;
        if (loop != null) {
            loop.interrupt();
        }
        jobs.stopAll();
        // closing the sessions aborts transfers in flight; their files resume on the next start
        queue.stop();
        applier.stop();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /**
     * A new transfer, just committed: this instance takes its lease and starts its planning at once
     * (no tick between the submission and the crawl); should the lease be taken already, the
     * next tick sees to it.
     */
    @TransactionalEventListener(fallbackExecution = true)
    public void onSubmitted(TaskSubmittedEvent event) {
        if (running && claim(event.taskId())) {
            plan.start(event.taskId());
        } else {
            wakeup.wake();
        }
    }

    /** A new delete task, just committed: this instance takes its lease and starts its walk at once. */
    @TransactionalEventListener(fallbackExecution = true)
    public void onDeleteSubmitted(DeleteSubmittedEvent event) {
        if (running && claim(event.taskId())) {
            delete.start(event.taskId(), instance);
        } else {
            wakeup.wake();
        }
    }

    private boolean claim(UUID taskId) {
        try {
            Instant now = clock.instant();
            return Boolean.TRUE.equals(transactions.execute(
                    status -> tasks.claimLease(taskId, instance, now, now.plus(properties.lease()))));
        } catch (RuntimeException e) {
            log.debug("Cannot take the lease of task {} at once: {}", taskId, e.toString());
            return false;
        }
    }

    /** A cancel committed: stop the task's work wherever it runs. */
    @TransactionalEventListener(fallbackExecution = true)
    public void onCancelRequested(TaskCancelRequestedEvent event) {
        ending.stopWork(event.taskId());
        transactions.executeWithoutResult(status -> files.endChunksOf(event.taskId()));
        wakeup.wake();
    }

    /**
     * The owner changed the deadline (already in the task row, which every pass reads): run a pass
     * now, so that a deadline moved into the past ends the task and stops its work at once.
     */
    @TransactionalEventListener(fallbackExecution = true)
    public void onDeadlineChanged(TaskDeadlineChangedEvent event) {
        wakeup.wake();
    }

    private void run() {
        while (running) {
            try {
                wakeup.await(properties.tickInterval());
                tick();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                log.warn("Scheduler tick failed: {}", e.toString());
                log.debug("Scheduler tick failure", e);
                if (!fenced
                        && System.currentTimeMillis() - lastRenewMillis
                                > properties.lease().toMillis() / 2) {
                    // another instance may take these tasks when the leases run out: stop working
                    // on them here before that can happen
                    log.warn(
                            "Leases not renewed for {} ms: stopping the chunks and jobs of this instance",
                            System.currentTimeMillis() - lastRenewMillis);
                    queue.stopAll();
                    jobs.stopAll();
                    fenced = true;
                }
                try {
                    Thread.sleep(500); // e.g. the database restarts: try again soon
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    private void tick() {
        Instant now = clock.instant();
        boolean renew = renewedAt == null
                || !now.isBefore(renewedAt.plus(properties.tickInterval()))
                || now.isBefore(renewedAt)
                || System.nanoTime() - renewedNanos >= properties.tickInterval().toNanos();
        // a pass woken by a submission or a chunk's end between two renewals reads the leases it
        // holds without rewriting every ACTIVE task row (with hundreds of short tasks the passes
        // come every few milliseconds); the leases are renewed once per tick interval, far within
        // the lease time
        List<LeasedTask> leased = renew
                ? transactions.execute(status -> tasks.renewLeases(instance, now, now.plus(properties.lease())))
                : transactions.execute(status -> tasks.leasedTasks(instance, now));
        if (leased == null) {
            return;
        }
        if (renew) {
            renewedAt = now;
            renewedNanos = System.nanoTime();
            lastRenewMillis = System.currentTimeMillis();
            fenced = false;
        }
        Tick tick = new Tick(now, leased, firstTick, instance, renew);
        firstTick = false;
        for (TickStep step : steps) {
            step.run(tick);
        }
    }
}
