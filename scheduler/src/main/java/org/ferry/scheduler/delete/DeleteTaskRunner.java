package org.ferry.scheduler.delete;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.ferry.api.credential.ActivationRequiredException;
import org.ferry.api.credential.EndpointAccessService;
import org.ferry.api.domain.DeleteItem;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.EventCode;
import org.ferry.api.domain.Task;
import org.ferry.api.domain.TaskStatus;
import org.ferry.api.lifecycle.DeleteSubmittedEvent;
import org.ferry.api.lifecycle.EndpointActivatedEvent;
import org.ferry.api.lifecycle.EndpointDeactivatedEvent;
import org.ferry.api.lifecycle.TaskCancelRequestedEvent;
import org.ferry.api.lifecycle.TaskDeadlineChangedEvent;
import org.ferry.api.repository.DeleteItemRepository;
import org.ferry.api.repository.EndpointRepository;
import org.ferry.api.repository.TaskRepository;
import org.ferry.mover.access.CredentialExpiredException;
import org.ferry.mover.access.EndpointAccess;
import org.ferry.mover.access.EndpointSessions;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.scheduler.TransferProperties;
import org.ferry.scheduler.execution.Fault;
import org.ferry.scheduler.execution.FaultClassifier;
import org.ferry.scheduler.execution.Suspension;
import org.ferry.scheduler.execution.TaskRecorder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionalEventListener;

/**
 * Runs DELETE tasks: for each path in order, removes it over one GridFTP session to the
 * endpoint (recursively when the task says so); a missing path fails the task with
 * {@code FILE_NOT_FOUND} unless {@code ignore_missing}, a directory without {@code recursive}
 * with {@code NOT_A_FILE}, a refused one with {@code PERMISSION_DENIED}. Other faults (broken
 * connections, timeouts) are retried up to {@code ferry.transfer.max-attempts} with the same
 * back-off as transfers, resuming at the path being deleted. A cancel or the deadline stops the
 * walk between two GridFTP commands. Tasks left ACTIVE by an earlier run resume on start.
 */
@Component
public class DeleteTaskRunner implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(DeleteTaskRunner.class);

    private final TaskRepository tasks;
    private final DeleteItemRepository items;
    private final EndpointRepository endpoints;
    private final TaskRecorder recorder;
    private final EndpointAccessService accesses;
    private final EndpointSessions sessions;
    private final TransferProperties properties;
    private final Set<UUID> cancelled = ConcurrentHashMap.newKeySet();
    private final Map<UUID, Fault> suspensions = new ConcurrentHashMap<>();
    private final Map<UUID, Instant> deadlines = new ConcurrentHashMap<>();
    private final Set<UUID> running = ConcurrentHashMap.newKeySet();
    private ExecutorService workers;

    /**
     * @param tasks task store
     * @param items the tasks' paths
     * @param endpoints endpoint store
     * @param recorder events and task ends
     * @param client opens GridFTP sessions
     * @param properties attempts and back-off
     */
    public DeleteTaskRunner(
            TaskRepository tasks,
            DeleteItemRepository items,
            EndpointRepository endpoints,
            TaskRecorder recorder,
            EndpointAccessService accesses,
            EndpointSessions sessions,
            TransferProperties properties) {
        this.tasks = tasks;
        this.items = items;
        this.endpoints = endpoints;
        this.recorder = recorder;
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
        tasks.findByStatusAndTypeOrderByRequestTime(TaskStatus.ACTIVE, Task.TYPE_DELETE)
                .forEach(task -> schedule(task.getId()));
        tasks.findByStatusAndTypeOrderByRequestTime(TaskStatus.INACTIVE, Task.TYPE_DELETE)
                .forEach(task -> resumeIfUsable(task, "The endpoint is usable again: the task resumes"));
    }

    /**
     * The owner activated an endpoint: their INACTIVE delete tasks on it resume (on a worker: the
     * activation's transaction is spent after its commit).
     */
    @TransactionalEventListener(fallbackExecution = true)
    public void onEndpointActivated(EndpointActivatedEvent event) {
        async(() -> {
            for (Task task : tasks.findUsingEndpoint(TaskStatus.INACTIVE, event.ownerName(), event.endpointId())) {
                if (Task.TYPE_DELETE.equals(task.getType())) {
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
            for (Task task : tasks.findUsingEndpoint(TaskStatus.ACTIVE, event.ownerName(), event.endpointId())) {
                if (!Task.TYPE_DELETE.equals(task.getType())) {
                    continue;
                }
                Fault fault = Suspension.fault(
                        "Endpoint " + task.getSourceEndpoint() + " was deactivated: its credential is gone");
                if (running.contains(task.getId())) {
                    suspensions.put(task.getId(), fault); // the walk stops at its next command
                } else {
                    recorder.suspend(task.getId(), fault);
                }
            }
        });
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
        if (recorder.resume(task.getId(), why)) {
            schedule(task.getId());
        }
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
                recorder.fail(taskId, new Fault(EventCode.UNKNOWN, "Internal error: " + e));
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
        if (task == null || task.getStatus() != TaskStatus.ACTIVE || !Task.TYPE_DELETE.equals(task.getType())) {
            return;
        }
        if (task.getDeadline() != null) {
            deadlines.putIfAbsent(taskId, task.getDeadline());
        }
        Endpoint endpoint = endpoints.findById(task.getSourceEndpointId()).orElse(null);
        if (endpoint == null) {
            recorder.fail(
                    taskId,
                    new Fault(EventCode.ENDPOINT_ERROR, "Endpoint " + task.getSourceEndpoint() + " was deleted"));
            return;
        }
        EndpointAccess login;
        try {
            login = accesses.access(task.getOwnerName(), endpoint);
        } catch (ActivationRequiredException e) {
            recorder.suspend(taskId, Suspension.fault(e.getMessage()));
            return;
        }
        // a run after an earlier one (a restart, or resumed after INACTIVE) finds the paths that
        // run removed gone: not an error then
        boolean earlierRun = task.getStartTime() != null;
        if (!recorder.started(taskId)) {
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
                            recorder.fail(
                                    taskId, new Fault(EventCode.FILE_NOT_FOUND, "No such file or directory: " + path));
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
                Fault suspension = suspensions.remove(taskId);
                if (suspension != null) {
                    recorder.suspend(taskId, suspension);
                } else if (!cancelled.contains(taskId)) {
                    recorder.fail(
                            taskId, new Fault(EventCode.EXPIRED, "The task's deadline passed before it completed"));
                }
                return;
            } catch (DeleteWalk.NotRecursiveException e) {
                recorder.fail(taskId, new Fault(EventCode.NOT_A_FILE, e.getMessage()));
                return;
            } catch (CredentialExpiredException e) {
                recorder.suspend(taskId, Suspension.fault(e.getMessage()));
                return;
            } catch (IOException e) {
                Fault fault = FaultClassifier.classify(
                        e, "Deleting " + paths.get(next).getPath());
                failures++;
                boolean permanent =
                        fault.code() == EventCode.PERMISSION_DENIED || fault.code() == EventCode.FILE_NOT_FOUND;
                if (permanent || failures >= properties.maxAttempts()) {
                    recorder.fail(taskId, fault);
                    return;
                }
                recorder.event(taskId, fault.code(), fault.description(), null);
                tasks.addCounters(taskId, 0, 0, 0, 0, 0, 1);
                if (!pause(properties.backoffSeconds(failures), taskId)) {
                    return;
                }
            }
        }
        tasks.recordPlan(taskId, files, directories, files, 0, 0);
        if (tasks.finish(taskId, TaskStatus.SUCCEEDED, null, null, Instant.now()) > 0) {
            recorder.event(
                    taskId,
                    EventCode.SUCCEEDED,
                    "The task completed successfully",
                    "{\"files_deleted\":" + files + ",\"directories_deleted\":" + directories + "}");
        }
    }

    private boolean stopped(UUID taskId) {
        Instant deadline = deadlines.get(taskId);
        return cancelled.contains(taskId)
                || suspensions.containsKey(taskId)
                || (deadline != null && Instant.now().isAfter(deadline));
    }

    /** Waits out a back-off; false if the task was cancelled or the thread stopped meanwhile. */
    private boolean pause(long seconds, UUID taskId) {
        try {
            Thread.sleep(seconds * 1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        return !cancelled.contains(taskId);
    }
}
