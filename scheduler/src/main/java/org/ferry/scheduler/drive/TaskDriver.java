package org.ferry.scheduler.drive;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.ferry.api.domain.EventCode;
import org.ferry.api.lifecycle.TaskCancelRequestedEvent;
import org.ferry.api.lifecycle.TaskDeadlineChangedEvent;
import org.ferry.api.lifecycle.TaskSubmittedEvent;
import org.ferry.api.store.ChunkTransition;
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
 * The scheduler's loop, once per tick interval and at once on a submission, a cancel, a deadline
 * change or a chunk's end: takes and renews the leases of ACTIVE tasks (several ferry-server instances may share one
 * database; the lease decides which one drives a task, and an instance that stops renewing loses
 * its tasks to another after the lease time), expires tasks past their deadline, plans new ones,
 * takes chunks whose mover went silent as lost (their files go back to PENDING and resume from
 * their restart markers), dispatches chunks fairly, writes PROGRESS events, and once every file
 * of a mirroring task arrived has its destination extras deleted ({@link MirrorJob}); last, it
 * deletes expired endpoint credentials when that is due ({@link ExpiredCredentialSweep}). INACTIVE
 * tasks (waiting for an endpoint's activation, {@link Activations}) are not leased; they fail
 * EXPIRED at their deadline.
 */
@Component
public class TaskDriver implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(TaskDriver.class);

    private final TaskStore tasks;
    private final FileStore files;
    private final TransactionTemplate transactions;
    private final PlanningJob planning;
    private final MirrorJob mirrors;
    private final ExpiredCredentialSweep credentialSweep;
    private final Dispatcher dispatcher;
    private final TaskEnding ending;
    private final WorkQueue queue;
    private final Wakeup wakeup;
    private final TransferProperties properties;
    private final String instance;
    private final Set<UUID> planningNow = ConcurrentHashMap.newKeySet();
    private final Set<UUID> mirroringNow = ConcurrentHashMap.newKeySet();
    private final Map<UUID, long[]> lastProgress = new ConcurrentHashMap<>();

    private ExecutorService planners;
    private volatile long lastRenewMillis = System.currentTimeMillis();
    private boolean fenced;
    private Thread loop;
    private volatile boolean running;
    private boolean firstTick = true;

    /**
     * @param tasks task rows
     * @param files file rows
     * @param transactions transactions
     * @param planning plans tasks
     * @param mirrors deletes destination extras ({@code delete_destination_extra}) after the copy
     * @param credentialSweep deletes expired endpoint credentials
     * @param dispatcher dispatches chunks
     * @param ending ends tasks
     * @param queue the work queue
     * @param wakeup wake-ups
     * @param properties intervals and limits
     * @param instanceId this instance's lease name ({@code ferry.scheduler.instance-id}; default:
     *     host name and FERRY_HOME, so that a restarted server takes its own leases back at once)
     * @param ferryHome the state directory
     */
    public TaskDriver(
            TaskStore tasks,
            FileStore files,
            TransactionTemplate transactions,
            PlanningJob planning,
            MirrorJob mirrors,
            ExpiredCredentialSweep credentialSweep,
            Dispatcher dispatcher,
            TaskEnding ending,
            WorkQueue queue,
            Wakeup wakeup,
            TransferProperties properties,
            @Value("${ferry.scheduler.instance-id:}") String instanceId,
            @Value("${ferry.home:.}") String ferryHome) {
        this.tasks = tasks;
        this.files = files;
        this.transactions = transactions;
        this.planning = planning;
        this.mirrors = mirrors;
        this.credentialSweep = credentialSweep;
        this.dispatcher = dispatcher;
        this.ending = ending;
        this.queue = queue;
        this.wakeup = wakeup;
        this.properties = properties;
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

    @Override
    public synchronized void start() {
        AtomicInteger plannerNumber = new AtomicInteger();
        planners = Executors.newFixedThreadPool(properties.plannerThreads(), r -> {
            Thread thread = new Thread(r, "ferry-planner-" + plannerNumber.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        running = true;
        loop = new Thread(this::run, "ferry-scheduler");
        loop.setDaemon(true);
        loop.start();
        log.info("Scheduler {} started", instance);
    }

    @Override
    public synchronized void stop() {
        running = false;
        if (loop != null) {
            loop.interrupt();
        }
        if (planners != null) {
            planners.shutdownNow();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Starts after the work queue and the result applier, stops before them. */
    @Override
    public int getPhase() {
        return DEFAULT_PHASE;
    }

    /** A new task: plan it now. */
    @TransactionalEventListener(fallbackExecution = true)
    public void onSubmitted(TaskSubmittedEvent event) {
        wakeup.wake();
    }

    /** A cancel committed: stop the task's chunks wherever they run. */
    @TransactionalEventListener(fallbackExecution = true)
    public void onCancelRequested(TaskCancelRequestedEvent event) {
        ending.stopMovers(event.taskId());
        transactions.executeWithoutResult(status -> files.endChunksOf(event.taskId()));
        wakeup.wake();
    }

    /**
     * The owner changed the deadline (already in the task row, which every tick reads): tick now,
     * so that a deadline moved into the past ends the task and stops its movers at once.
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
                    // another instance may take these tasks when the leases run out: stop moving
                    // their files here before that can happen
                    log.warn(
                            "Leases not renewed for {} ms: stopping the chunks of this instance",
                            System.currentTimeMillis() - lastRenewMillis);
                    queue.stopAll();
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
        Instant now = Instant.now();
        List<LeasedTask> leased =
                transactions.execute(status -> tasks.renewLeases(instance, now, now.plus(properties.lease())));
        if (leased == null) {
            return;
        }
        lastRenewMillis = System.currentTimeMillis();
        fenced = false;
        if (firstTick) {
            firstTick = false;
            if (queue.chunksEndWithThisProcess()) {
                // an earlier run of this instance moved these chunks in its own JVM: they are gone
                for (LeasedTask task : leased) {
                    for (long chunkId : files.activeChunkIds(task.id())) {
                        transactions.executeWithoutResult(
                                status -> files.endChunk(chunkId, ChunkTransition.LOSE, null));
                    }
                }
            }
        }
        Set<UUID> ids = new HashSet<>();
        for (LeasedTask task : leased) {
            ids.add(task.id());
            if (task.deadline() != null && !now.isBefore(task.deadline())) {
                if (ending.fail(
                        task.id(), EventCode.EXPIRED.name(), "The task's deadline passed before it completed")) {
                    log.info("Task {} expired", task.id());
                }
                continue;
            }
            if (!task.planned()
                    && (task.retryAfter() == null || !task.retryAfter().isAfter(now))
                    && planningNow.add(task.id())) {
                planners.submit(() -> {
                    try {
                        planning.plan(task.id());
                    } catch (RuntimeException e) {
                        log.error("Planning task {} failed", task.id(), e);
                    } finally {
                        planningNow.remove(task.id());
                        wakeup.wake();
                    }
                });
            }
        }
        lastProgress.keySet().retainAll(ids);
        queue.keepOnly(ids);
        for (LeasedTask task : leased) {
            // a safety net: the result applier ends tasks as their last file lands, but a
            // database outage at that moment would leave a task with nothing left to do
            if (task.planned() && !files.hasOpenFiles(task.id())) {
                if (!task.mirrorPending()) {
                    ending.finishIfDone(task.id());
                } else if ((task.retryAfter() == null || !task.retryAfter().isAfter(now))
                        && mirroringNow.add(task.id())) {
                    // every file arrived: delete the destination's extras, then end the task
                    planners.submit(() -> {
                        try {
                            mirrors.mirror(task.id());
                        } catch (RuntimeException e) {
                            log.error("Deleting the destination extras of task {} failed", task.id(), e);
                        } finally {
                            mirroringNow.remove(task.id());
                        }
                    });
                }
            }
        }
        for (UUID inactive : tasks.inactivePastDeadline(now)) {
            if (ending.fail(
                    inactive,
                    EventCode.EXPIRED.name(),
                    "The task's deadline passed while it was INACTIVE, waiting for an endpoint's activation")) {
                log.info("Task {} expired while INACTIVE", inactive);
            }
        }
        recoverLostChunks(now);
        dispatcher.dispatch(leased, now);
        progressEvents(leased, now);
        credentialSweep.sweepIfDue(now);
    }

    private void recoverLostChunks(Instant now) {
        Instant silentSince = now.minus(properties.chunkTimeout());
        if (queue.deliveringSince().isAfter(silentSince)) {
            return; // the transport itself was down lately: silence proves nothing about the movers
        }
        for (long chunkId : files.silentChunks(instance, silentSince)) {
            UUID taskId = transactions.execute(status -> files.endChunk(chunkId, ChunkTransition.LOSE, null));
            queue.cancelChunk(chunkId); // should its mover be alive after all, it stops
            if (taskId != null) {
                log.warn(
                        "Chunk {} of task {}: no word from its mover for {}; its files are offered again",
                        chunkId,
                        taskId,
                        properties.chunkTimeout());
                transactions.executeWithoutResult(status -> tasks.eventIfActive(
                        taskId,
                        EventCode.CONNECTION_BROKEN,
                        "A mover went silent; its files are offered again and resume from their restart markers",
                        "{\"chunk_id\":" + chunkId + "}"));
            }
        }
    }

    private void progressEvents(List<LeasedTask> leased, Instant now) {
        long intervalMillis = properties.progressIntervalSeconds() * 1000L;
        for (LeasedTask task : leased) {
            if (!task.planned()) {
                continue;
            }
            long[] last = lastProgress.computeIfAbsent(task.id(), id -> new long[] {0, 0, now.toEpochMilli()});
            boolean moved = task.bytesTransferred() != last[0] || task.filesTransferred() != last[1];
            if (moved && now.toEpochMilli() - last[2] >= intervalMillis) {
                last[0] = task.bytesTransferred();
                last[1] = task.filesTransferred();
                last[2] = now.toEpochMilli();
                transactions.executeWithoutResult(status -> tasks.eventIfActive(
                        task.id(),
                        EventCode.PROGRESS,
                        "Progress update",
                        "{\"bytes_transferred\":" + task.bytesTransferred() + ",\"files_transferred\":"
                                + task.filesTransferred() + "}"));
            }
        }
    }
}
