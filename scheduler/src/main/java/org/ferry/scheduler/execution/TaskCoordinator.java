package org.ferry.scheduler.execution;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.ferry.api.credential.ActivationRequiredException;
import org.ferry.api.credential.EndpointAccessService;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.EventCode;
import org.ferry.api.domain.Task;
import org.ferry.api.domain.TaskStatus;
import org.ferry.api.domain.TransferItem;
import org.ferry.api.lifecycle.EndpointActivatedEvent;
import org.ferry.api.lifecycle.EndpointDeactivatedEvent;
import org.ferry.api.lifecycle.TaskCancelRequestedEvent;
import org.ferry.api.lifecycle.TaskDeadlineChangedEvent;
import org.ferry.api.lifecycle.TaskSubmittedEvent;
import org.ferry.api.repository.EndpointRepository;
import org.ferry.api.repository.TaskRepository;
import org.ferry.api.repository.TransferItemRepository;
import org.ferry.api.service.EndpointService;
import org.ferry.mover.access.CredentialExpiredException;
import org.ferry.mover.access.EndpointAccess;
import org.ferry.mover.access.EndpointSessions;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.scheduler.TransferProperties;
import org.ferry.scheduler.plan.Chunker;
import org.ferry.scheduler.plan.PlanningException;
import org.ferry.scheduler.plan.TaskPlanner;
import org.ferry.scheduler.plan.TransferPlan;
import org.ferry.scheduler.queue.TransferChunk;
import org.ferry.scheduler.queue.WorkQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * Task lifecycle: plans submitted tasks (and, on start, tasks left ACTIVE by a previous run),
 * queues their chunks, stops cancelled tasks, and every flush interval writes counters and fails
 * tasks past their deadline. A task whose endpoint has no usable credential (never activated,
 * expired, deactivated) goes INACTIVE with a {@code NO_CREDENTIALS} event; it resumes by itself
 * when the owner activates the endpoint again, and fails {@code EXPIRED} at its deadline otherwise.
 */
@Component
public class TaskCoordinator implements SmartLifecycle {

    private static final long STOP_POLL_MILLIS = 100;

    private static final Logger log = LoggerFactory.getLogger(TaskCoordinator.class);

    private final TaskRepository tasks;
    private final TransferItemRepository items;
    private final EndpointRepository endpoints;
    private final TaskExecutions executions;
    private final TaskRecorder recorder;
    private final TaskCompletion completion;
    private final WorkQueue queue;
    private final EndpointSessions sessions;
    private final EndpointAccessService accesses;
    private final EndpointService endpointService;
    private final Clock clock;
    private final TransferProperties properties;
    private final Chunker chunker;

    private ExecutorService planners;
    private ScheduledExecutorService ticker;
    private volatile boolean running;

    /**
     * @param tasks task store
     * @param items transfer item store
     * @param endpoints endpoint store
     * @param executions running tasks
     * @param recorder database writes
     * @param completion ends tasks
     * @param queue where chunks go
     * @param sessions opens sessions for planning
     * @param accesses how the owner reaches each endpoint (their activated credentials)
     * @param endpointService whether clear-text endpoints are allowed
     * @param clock what "now" is for credential expiry
     * @param properties limits and intervals
     */
    public TaskCoordinator(
            TaskRepository tasks,
            TransferItemRepository items,
            EndpointRepository endpoints,
            TaskExecutions executions,
            TaskRecorder recorder,
            TaskCompletion completion,
            WorkQueue queue,
            EndpointSessions sessions,
            EndpointAccessService accesses,
            EndpointService endpointService,
            Clock clock,
            TransferProperties properties) {
        this.tasks = tasks;
        this.items = items;
        this.endpoints = endpoints;
        this.executions = executions;
        this.recorder = recorder;
        this.completion = completion;
        this.queue = queue;
        this.sessions = sessions;
        this.accesses = accesses;
        this.endpointService = endpointService;
        this.clock = clock;
        this.properties = properties;
        this.chunker = new Chunker(properties.chunkMaxFiles(), properties.chunkMaxBytes());
    }

    @Override
    public synchronized void start() {
        AtomicInteger plannerNumber = new AtomicInteger();
        planners = Executors.newFixedThreadPool(properties.plannerThreads(), r -> {
            Thread thread = new Thread(r, "ferry-planner-" + plannerNumber.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "ferry-task-ticker");
            thread.setDaemon(true);
            return thread;
        });
        ticker.scheduleWithFixedDelay(
                this::tick, properties.flushIntervalMillis(), properties.flushIntervalMillis(), TimeUnit.MILLISECONDS);
        running = true;
    }

    @Override
    public synchronized void stop() {
        running = false;
        if (ticker != null) {
            ticker.shutdownNow();
        }
        if (planners != null) {
            planners.shutdownNow();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Plans a task once its submission committed. */
    @TransactionalEventListener(fallbackExecution = true)
    public void onSubmitted(TaskSubmittedEvent event) {
        schedule(event.taskId());
    }

    /**
     * Stops a cancelled task's workers once the cancel committed. In a transaction of its own:
     * after the commit the cancel's transaction is over, and the counters flushed here would
     * otherwise find none ("No active transaction for update").
     */
    @TransactionalEventListener(fallbackExecution = true)
    @Transactional(propagation = Propagation.REQUIRES_NEW)
    public void onCancelRequested(TaskCancelRequestedEvent event) {
        completion.stopped(event.taskId());
    }

    /** Applies a deadline the owner changed to the running task (the tick enforces it). */
    @TransactionalEventListener(fallbackExecution = true)
    public void onDeadlineChanged(TaskDeadlineChangedEvent event) {
        executions.get(event.taskId()).ifPresent(execution -> execution.deadline(event.deadline()));
    }

    /**
     * Resumes tasks a previous run of the server left ACTIVE, and INACTIVE tasks whose endpoints
     * are usable now (an activation whose event a stop cut short).
     */
    @EventListener(ApplicationReadyEvent.class)
    public void resumeActiveTasks() {
        List<Task> active = tasks.findByStatusAndTypeOrderByRequestTime(TaskStatus.ACTIVE, Task.TYPE_TRANSFER);
        if (!active.isEmpty()) {
            log.info("Resuming {} active task(s)", active.size());
        }
        active.forEach(task -> schedule(task.getId()));
        for (Task task : tasks.findByStatusAndTypeOrderByRequestTime(TaskStatus.INACTIVE, Task.TYPE_TRANSFER)) {
            resumeIfUsable(task, "Both endpoints are usable again");
        }
    }

    /**
     * An endpoint was activated: the owner's INACTIVE tasks on it resume (when their other endpoint
     * is usable too), and their ACTIVE ones are planned afresh with the new credential.
     */
    @TransactionalEventListener(fallbackExecution = true)
    public void onEndpointActivated(EndpointActivatedEvent event) {
        // on a planner thread: after the activation's commit this thread's transaction is spent,
        // and writes joined to it would never commit
        async("resuming tasks after an activation", () -> resumeAfterActivation(event));
    }

    /** An endpoint was deactivated: the owner's tasks on it stop and go INACTIVE. */
    @TransactionalEventListener(fallbackExecution = true)
    public void onEndpointDeactivated(EndpointDeactivatedEvent event) {
        async("suspending tasks after a deactivation", () -> suspendAfterDeactivation(event));
    }

    private void async(String what, Runnable work) {
        if (!running) {
            return;
        }
        planners.submit(() -> {
            try {
                work.run();
            } catch (RuntimeException e) {
                log.error("Failed {}", what, e);
            }
        });
    }

    private void resumeAfterActivation(EndpointActivatedEvent event) {
        Endpoint endpoint = endpoints.findById(event.endpointId()).orElse(null);
        String name = endpoint == null ? "the endpoint" : "Endpoint " + endpoint.getCanonicalName();
        for (TaskExecution execution : executions.all()) {
            if (execution.ownerName().equals(event.ownerName()) && execution.uses(event.endpointId())) {
                completion.restart(execution);
                schedule(execution.taskId());
            }
        }
        for (Task task : tasks.findUsingEndpoint(TaskStatus.INACTIVE, event.ownerName(), event.endpointId())) {
            if (Task.TYPE_TRANSFER.equals(task.getType())) { // delete tasks: DeleteTaskRunner's
                resumeIfUsable(task, name + " was activated again: the task resumes");
            }
        }
    }

    private void suspendAfterDeactivation(EndpointDeactivatedEvent event) {
        Endpoint endpoint = endpoints.findById(event.endpointId()).orElse(null);
        String name = endpoint == null ? event.endpointId().toString() : endpoint.getCanonicalName();
        Fault fault = Suspension.fault("Endpoint " + name + " was deactivated: its credential is gone");
        for (TaskExecution execution : executions.all()) {
            if (execution.ownerName().equals(event.ownerName()) && execution.uses(event.endpointId())) {
                completion.suspend(execution, fault);
            }
        }
        for (Task task : tasks.findUsingEndpoint(TaskStatus.ACTIVE, event.ownerName(), event.endpointId())) {
            if (Task.TYPE_TRANSFER.equals(task.getType()) && !executions.isRunning(task.getId())) {
                recorder.suspend(task.getId(), fault);
            }
        }
    }

    private void resumeIfUsable(Task task, String why) {
        try {
            for (UUID endpointId : List.of(task.getSourceEndpointId(), task.getDestinationEndpointId())) {
                Endpoint endpoint = endpoints.findById(endpointId).orElse(null);
                if (endpoint != null) {
                    accesses.access(task.getOwnerName(), endpoint);
                }
            }
        } catch (ActivationRequiredException stillMissing) {
            return; // the other endpoint still waits for its activation
        }
        if (recorder.resume(task.getId(), why)) {
            schedule(task.getId());
        }
    }

    private void schedule(UUID taskId) {
        if (!running || executions.isRunning(taskId)) {
            return;
        }
        planners.submit(() -> {
            try {
                plan(taskId);
            } catch (RuntimeException e) {
                log.error("Planning task {} failed", taskId, e);
            }
        });
    }

    private void plan(UUID taskId) {
        Task task = tasks.findById(taskId).orElse(null);
        if (task == null || task.getStatus() != TaskStatus.ACTIVE || !Task.TYPE_TRANSFER.equals(task.getType())) {
            return;
        }
        TaskExecution execution;
        try {
            Endpoint source = endpoint(task.getSourceEndpointId(), task.getSourceEndpoint());
            Endpoint destination = endpoint(task.getDestinationEndpointId(), task.getDestinationEndpoint());
            execution = new TaskExecution(new TaskExecution.Setup(
                    taskId,
                    task.getOwnerName(),
                    source.getId(),
                    destination.getId(),
                    accesses.access(task.getOwnerName(), source),
                    accesses.access(task.getOwnerName(), destination),
                    task.isVerifyChecksum(),
                    task.isEncryptData() ? ProtectionLevel.PRIVATE : ProtectionLevel.CLEAR,
                    task.getDeadline(),
                    firstExpiry(
                            accesses.status(task.getOwnerName(), source).expireTime(),
                            accesses.status(task.getOwnerName(), destination).expireTime())));
        } catch (PlanningException e) {
            recorder.fail(taskId, new Fault(e.code(), e.getMessage()));
            return;
        } catch (ActivationRequiredException e) {
            recorder.suspend(taskId, Suspension.fault(e.getMessage()));
            return;
        }
        if (!executions.register(execution)) {
            return;
        }
        try {
            if (!recorder.started(taskId)) {
                completion.stopped(taskId);
                return;
            }
            TransferPlan plan = planWithRetries(execution, task, items.findByTaskIdOrderByItemIndex(taskId));
            if (plan == null) {
                return;
            }
            if (!recorder.planned(execution, plan)) {
                completion.stopped(taskId);
                return;
            }
            List<TransferChunk> chunks = chunker.cut(taskId, plan.toTransfer());
            if (chunks.isEmpty()) {
                completion.succeed(execution);
                return;
            }
            execution.chunksQueued(chunks.size());
            chunks.forEach(queue::submit);
        } catch (RuntimeException e) {
            log.error("Task {} failed while planning", taskId, e);
            completion.fail(execution, FaultClassifier.classify(e, "Planning the transfer"));
        }
    }

    /** @return the plan, or null if the task ended (failed or stopped) meanwhile */
    private TransferPlan planWithRetries(TaskExecution execution, Task task, List<TransferItem> taskItems) {
        Map<String, Long> alreadyTransferred = recorder.alreadyTransferred(task.getId());
        for (int attempt = 1; ; attempt++) {
            if (execution.isStopped()) {
                return null;
            }
            GridFtpSession source = null;
            GridFtpSession destination = null;
            try {
                source = execution.track(sessions.open(execution.source(), execution.dataProtection()));
                destination = execution.track(sessions.open(execution.destination(), execution.dataProtection()));
                return new TaskPlanner(source, destination, task.getSyncLevel(), alreadyTransferred).plan(taskItems);
            } catch (CredentialExpiredException e) {
                completion.suspend(execution, Suspension.fault(e.getMessage()));
                return null;
            } catch (PlanningException e) {
                Fault fault = new Fault(e.code(), e.getMessage());
                recorder.fault(execution, fault);
                completion.fail(execution, fault);
                return null;
            } catch (IOException | RuntimeException e) {
                if (execution.isStopped()) {
                    return null;
                }
                Fault fault = FaultClassifier.classify(
                        e,
                        "Listing the source and preparing the destination" + " (attempt " + attempt + " of "
                                + properties.maxAttempts() + ")");
                recorder.fault(execution, fault);
                if (attempt >= properties.maxAttempts()) {
                    completion.fail(execution, fault);
                    return null;
                }
                if (!pause(execution, properties.backoffSeconds(attempt) * 1000)) {
                    return null;
                }
            } finally {
                execution.release(source);
                execution.release(destination);
            }
        }
    }

    /**
     * Waits out a back-off unless the task stops first.
     *
     * @return false if the task stopped or the thread was interrupted
     */
    private static boolean pause(TaskExecution execution, long millis) {
        long end = System.currentTimeMillis() + millis;
        try {
            while (System.currentTimeMillis() < end) {
                if (execution.isStopped()) {
                    return false;
                }
                Thread.sleep(Math.min(STOP_POLL_MILLIS, Math.max(1, end - System.currentTimeMillis())));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        return !execution.isStopped();
    }

    private Endpoint endpoint(UUID endpointId, String name) throws PlanningException {
        Endpoint endpoint = endpoints
                .findById(endpointId)
                .orElseThrow(() ->
                        new PlanningException(EventCode.ENDPOINT_ERROR, "Endpoint " + name + " no longer exists"));
        if (!endpointService.allowsClearText() && !endpoint.isGsi()) {
            throw new PlanningException(
                    EventCode.ENDPOINT_ERROR,
                    "Endpoint " + name + " is a clear-text (ftp://) endpoint, which this server no longer allows"
                            + " (ferry.endpoints.allow-clear-text=false)");
        }
        return endpoint;
    }

    private static Instant firstExpiry(Instant a, Instant b) {
        if (a == null) {
            return b;
        }
        return b == null || a.isBefore(b) ? a : b;
    }

    private void tick() {
        Instant now = Instant.now();
        for (TaskExecution execution : executions.all()) {
            try {
                if (execution.deadline() != null && now.isAfter(execution.deadline()) && !execution.isStopped()) {
                    Fault expired = new Fault(EventCode.EXPIRED, "The task's deadline passed before it completed");
                    recorder.event(execution.taskId(), expired.code(), expired.description(), null);
                    completion.fail(execution, expired);
                } else if (credentialsExpired(execution) && !execution.isStopped()) {
                    // stop before the sessions fail: what moved is kept, nothing burns attempts
                    completion.suspend(
                            execution,
                            Suspension.fault("The credential an endpoint of the task was activated with expired at "
                                    + execution.credentialsExpire() + ": activate "
                                    + expiringEndpoints(execution) + " again"));
                } else {
                    recorder.flush(execution);
                }
            } catch (RuntimeException e) {
                log.warn("Cannot record progress of task {}", execution.taskId(), e);
            }
        }
        try {
            for (Task task : tasks.findByStatusAndDeadlineBefore(TaskStatus.INACTIVE, now)) {
                recorder.expireInactive(task.getId());
            }
        } catch (RuntimeException e) {
            log.warn("Cannot expire INACTIVE tasks past their deadline", e);
        }
    }

    private boolean credentialsExpired(TaskExecution execution) {
        Instant expire = execution.credentialsExpire();
        return expire != null
                && !clock.instant().plus(EndpointSessions.EXPIRY_MARGIN).isBefore(expire);
    }

    private String expiringEndpoints(TaskExecution execution) {
        List<String> names = new java.util.ArrayList<>();
        for (EndpointAccess access : List.of(execution.source(), execution.destination())) {
            if (access.isGsi() && !names.contains(access.endpoint())) {
                names.add(access.endpoint());
            }
        }
        return String.join(" and ", names);
    }
}
