package org.ferry.scheduler.delete;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.ferry.api.credential.ActivationRequiredException;
import org.ferry.api.credential.EndpointAccessService;
import org.ferry.api.domain.DeleteItem;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.EventCode;
import org.ferry.api.domain.Task;
import org.ferry.api.domain.TaskStatus;
import org.ferry.api.domain.TaskType;
import org.ferry.api.lifecycle.DeleteSubmittedEvent;
import org.ferry.api.lifecycle.EndpointActivatedEvent;
import org.ferry.api.lifecycle.EndpointDeactivatedEvent;
import org.ferry.api.lifecycle.TaskCancelRequestedEvent;
import org.ferry.api.lifecycle.TaskDeadlineChangedEvent;
import org.ferry.api.repository.DeleteItemRepository;
import org.ferry.api.repository.EndpointRepository;
import org.ferry.api.repository.TaskRepository;
import org.ferry.api.store.TaskStore;
import org.ferry.mover.access.CredentialExpiredException;
import org.ferry.mover.access.EndpointAccess;
import org.ferry.mover.access.EndpointSessions;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.mover.runner.Faults;
import org.ferry.mover.runner.MoverFault;
import org.ferry.scheduler.TransferProperties;
import org.ferry.scheduler.drive.Activations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionalEventListener;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Runs DELETE tasks: for each path in order, removes it over one GridFTP session to the
 * endpoint (recursively when the task says so); a missing path fails the task with
 * {@code FILE_NOT_FOUND} unless {@code ignore_missing}, a directory without {@code recursive}
 * with {@code NOT_A_FILE}, a refused one with {@code PERMISSION_DENIED}. Other faults (broken
 * connections, timeouts) are retried up to {@code ferry.transfer.max-attempts} with the
 * scheduler's back-off, resuming at the path being deleted. A cancel or the deadline stops the
 * walk between two GridFTP commands. Tasks left ACTIVE by an earlier run resume on start.
 */
@Component
public class DeleteTaskRunner implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(DeleteTaskRunner.class);

    private final TaskRepository tasks;
    private final DeleteItemRepository items;
    private final EndpointRepository endpoints;
    private final TaskStore taskRows;
    private final TransactionTemplate transactions;
    private final EndpointAccessService accesses;
    private final EndpointSessions sessions;
    private final TransferProperties properties;
    private final Set<UUID> cancelled = ConcurrentHashMap.newKeySet();
    private final Map<UUID, String> suspensions = new ConcurrentHashMap<>();
    private final Map<UUID, Instant> deadlines = new ConcurrentHashMap<>();
    private final Set<UUID> running = ConcurrentHashMap.newKeySet();
    private ExecutorService workers;

    /**
     * @param tasks task store
     * @param items the tasks' paths
     * @param endpoints endpoint store
     * @param taskRows events, start and end of tasks
     * @param transactions transactions for those
     * @param accesses how the owner logs in to the endpoint (their activated credential)
     * @param sessions opens GridFTP sessions from that
     * @param properties attempts and back-off
     */
    public DeleteTaskRunner(
            TaskRepository tasks,
            DeleteItemRepository items,
            EndpointRepository endpoints,
            TaskStore taskRows,
            TransactionTemplate transactions,
            EndpointAccessService accesses,
            EndpointSessions sessions,
            TransferProperties properties) {
        this.tasks = tasks;
        this.items = items;
        this.endpoints = endpoints;
        this.taskRows = taskRows;
        this.transactions = transactions;
        this.accesses = accesses;
        this.sessions = sessions;
        this.properties = properties;
    }

    @Override
    public synchronized void start() {
        workers = Executors.newFixedThreadPool(2, r -> {
            Thread thread = new Thread(r, "ferry-delete");
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public synchronized void stop() {
        if (workers != null) {
            workers.shutdownNow();
            try {
                workers.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            workers = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return workers != null;
    }

    /** Runs a delete task once its submission committed. */
    @TransactionalEventListener(fallbackExecution = true)
    public void onSubmitted(DeleteSubmittedEvent event) {
        schedule(event.taskId());
    }

    /** Stops a cancelled delete task between two GridFTP commands. */
    @TransactionalEventListener(fallbackExecution = true)
    public void onCancelRequested(TaskCancelRequestedEvent event) {
        if (running.contains(event.taskId())) {
            cancelled.add(event.taskId());
        }
    }

    /** Applies a changed deadline to a running delete task. */
    @TransactionalEventListener(fallbackExecution = true)
    public void onDeadlineChanged(TaskDeadlineChangedEvent event) {
        if (running.contains(event.taskId()) && event.deadline() != null) {
            deadlines.put(event.taskId(), event.deadline());
        }
    }

    /** Resumes delete tasks a previous run of the server left ACTIVE. */
    @EventListener(ApplicationReadyEvent.class)
    public void resumeActiveTasks() {
        taskRows.inStatus(TaskType.DELETE, TaskStatus.ACTIVE).forEach(this::schedule);
        for (UUID taskId : taskRows.inStatus(TaskType.DELETE, TaskStatus.INACTIVE)) {
            tasks.findById(taskId)
                    .ifPresent(task -> resumeIfUsable(task, "The endpoint is usable again: the task resumes"));
        }
    }

    /**
     * The owner activated an endpoint: their INACTIVE delete tasks on it resume (on a worker: the
     * activation's transaction is spent after its commit).
     */
    @TransactionalEventListener(fallbackExecution = true)
    public void onEndpointActivated(EndpointActivatedEvent event) {
        async(() -> {
            for (Task task : using(TaskStatus.INACTIVE, event.ownerName(), event.endpointId())) {
                if (task.getType() == TaskType.DELETE) {
                    resumeIfUsable(
                            task, "Endpoint " + task.getSourceEndpoint() + " was activated again: the task resumes");
                }
            }
        });
    }

    /** The owner deactivated an endpoint: their delete tasks on it stop and go INACTIVE. */
    @TransactionalEventListener(fallbackExecution = true)
    public void onEndpointDeactivated(EndpointDeactivatedEvent event) {
        async(() -> {
            for (Task task : using(TaskStatus.ACTIVE, event.ownerName(), event.endpointId())) {
                if (task.getType() != TaskType.DELETE) {
                    continue;
                }
                String why = "Endpoint " + task.getSourceEndpoint() + " was deactivated: its credential is gone";
                if (running.contains(task.getId())) {
                    suspensions.put(task.getId(), why); // the walk stops at its next command
                } else {
                    suspend(task.getId(), why);
                }
            }
        });
    }

    private List<Task> using(TaskStatus status, String owner, UUID endpointId) {
        return taskRows.usingEndpoint(status, owner, endpointId).stream()
                .map(tasks::findById)
                .flatMap(java.util.Optional::stream)
                .toList();
    }

    private void resumeIfUsable(Task task, String why) {
        Endpoint endpoint = endpoints.findById(task.getSourceEndpointId()).orElse(null);
        try {
            if (endpoint != null) {
                accesses.access(task.getOwnerName(), endpoint);
            }
        } catch (ActivationRequiredException stillMissing) {
            return;
        }
        if (Boolean.TRUE.equals(transactions.execute(status -> taskRows.resume(task.getId(), why, Instant.now())))) {
            schedule(task.getId());
        }
    }

    /** The task goes INACTIVE until its endpoint is activated again. */
    private void suspend(UUID taskId, String what) {
        transactions.executeWithoutResult(
                status -> taskRows.suspend(taskId, Activations.description(what), Instant.now()));
    }

    private synchronized void async(Runnable work) {
        if (workers == null) {
            return;
        }
        workers.submit(() -> {
            try {
                work.run();
            } catch (RuntimeException e) {
                log.error("Delete task activation change failed", e);
            }
        });
    }

    private synchronized void schedule(UUID taskId) {
        if (workers == null || !running.add(taskId)) {
            return;
        }
        workers.submit(() -> {
            try {
                run(taskId);
            } catch (RuntimeException e) {
                log.error("Delete task {} failed", taskId, e);
                fail(taskId, EventCode.UNKNOWN.name(), "Internal error: " + e);
            } finally {
                running.remove(taskId);
                cancelled.remove(taskId);
                deadlines.remove(taskId);
                suspensions.remove(taskId);
            }
        });
    }

    private void run(UUID taskId) {
        Task task = tasks.findById(taskId).orElse(null);
        if (task == null || task.getStatus() != TaskStatus.ACTIVE || task.getType() != TaskType.DELETE) {
            return;
        }
        if (task.getDeadline() != null) {
            deadlines.putIfAbsent(taskId, task.getDeadline());
        }
        Endpoint endpoint = endpoints.findById(task.getSourceEndpointId()).orElse(null);
        if (endpoint == null) {
            fail(taskId, EventCode.ENDPOINT_ERROR.name(), "Endpoint " + task.getSourceEndpoint() + " was deleted");
            return;
        }
        EndpointAccess login;
        try {
            login = accesses.access(task.getOwnerName(), endpoint);
        } catch (ActivationRequiredException e) {
            suspend(taskId, e.getMessage());
            return;
        }
        // a run after an earlier one (a restart, or resumed after INACTIVE) finds the paths that
        // run removed gone: not an error then
        boolean earlierRun = task.getStartTime() != null;
        if (!Boolean.TRUE.equals(transactions.execute(status -> taskRows.markStarted(taskId, Instant.now())))) {
            return;
        }
        List<DeleteItem> paths = items.findByTaskIdOrderByItemIndex(taskId);
        long files = 0;
        long directories = 0;
        int next = 0;
        int failures = 0;
        while (next < paths.size()) {
            try (GridFtpSession session = sessions.open(login, ProtectionLevel.CLEAR)) {
                while (next < paths.size()) {
                    String path = paths.get(next).getPath();
                    DeleteWalk walk = new DeleteWalk(session, task.isDeleteRecursive(), () -> stopped(taskId));
                    try {
                        boolean existed = walk.delete(path);
                        // a path gone on a retry was removed by the attempt that failed
                        if (!existed && !task.isIgnoreMissing() && failures == 0 && !earlierRun) {
                            fail(taskId, EventCode.FILE_NOT_FOUND.name(), "No such file or directory: " + path);
                            return;
                        }
                    } finally {
                        files += walk.files();
                        directories += walk.directories();
                    }
                    next++;
                    failures = 0;
                }
            } catch (DeleteWalk.StoppedException e) {
                String suspension = suspensions.remove(taskId);
                if (suspension != null) {
                    suspend(taskId, suspension);
                } else if (!cancelled.contains(taskId)) {
                    fail(taskId, EventCode.EXPIRED.name(), "The task's deadline passed before it completed");
                }
                return;
            } catch (DeleteWalk.NotRecursiveException e) {
                fail(taskId, EventCode.NOT_A_FILE.name(), e.getMessage());
                return;
            } catch (CredentialExpiredException e) {
                suspend(taskId, e.getMessage());
                return;
            } catch (IOException e) {
                MoverFault fault =
                        Faults.classify(e, "Deleting " + paths.get(next).getPath());
                failures++;
                if (fault.isPermanent() || failures >= properties.maxAttempts()) {
                    fail(taskId, fault.code().name(), fault.description());
                    return;
                }
                EventCode code = EventCode.valueOf(fault.code().name());
                transactions.executeWithoutResult(status -> {
                    if (taskRows.addFaults(taskId, 1, fault.code().name())) {
                        taskRows.insertEvent(taskId, code, fault.description(), null, Instant.now());
                    }
                });
                if (!pause(
                        properties.backoff(failures, ThreadLocalRandom.current().nextDouble()), taskId)) {
                    return;
                }
            }
        }
        long filesDeleted = files;
        long directoriesDeleted = directories;
        transactions.executeWithoutResult(status -> {
            taskRows.recordDeleted(taskId, filesDeleted, directoriesDeleted);
            taskRows.succeed(
                    taskId,
                    "{\"files_deleted\":" + filesDeleted + ",\"directories_deleted\":" + directoriesDeleted + "}",
                    Instant.now());
        });
    }

    /** Ends the task FAILED with its end event (a cancel that came first is kept). */
    private void fail(UUID taskId, String code, String description) {
        transactions.executeWithoutResult(status -> taskRows.fail(taskId, code, description, Instant.now()));
    }

    private boolean stopped(UUID taskId) {
        Instant deadline = deadlines.get(taskId);
        return cancelled.contains(taskId)
                || suspensions.containsKey(taskId)
                || (deadline != null && Instant.now().isAfter(deadline));
    }

    /** Waits out a back-off; false if the task was cancelled or the thread stopped meanwhile. */
    private boolean pause(Duration backoff, UUID taskId) {
        try {
            Thread.sleep(backoff.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        return !cancelled.contains(taskId);
    }
}
