package org.ferry.scheduler.drive;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.ferry.api.credential.ActivationRequiredException;
import org.ferry.api.credential.EndpointAccessService;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.EventCode;
import org.ferry.api.domain.Task;
import org.ferry.api.domain.TaskStatus;
import org.ferry.api.domain.TaskType;
import org.ferry.api.lifecycle.EndpointActivatedEvent;
import org.ferry.api.lifecycle.EndpointDeactivatedEvent;
import org.ferry.api.repository.EndpointRepository;
import org.ferry.api.repository.TaskRepository;
import org.ferry.api.service.EndpointService;
import org.ferry.api.store.TaskStore;
import org.ferry.mover.access.EndpointAccess;
import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.scheduler.plan.PlanningException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionalEventListener;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Transfer tasks and their endpoints' activations (Globus: ACTIVE goes INACTIVE when credentials
 * expire, and back to ACTIVE when they are renewed). A task whose owner has no usable credential
 * for a {@code gsiftp://} endpoint of it (never activated, expired, deactivated) is suspended:
 * INACTIVE with a {@code NO_CREDENTIALS} event naming the endpoint and what to do; its file rows
 * keep what moved. It resumes by itself when the owner activates the endpoint again (and the other
 * endpoint is usable too), and fails {@code EXPIRED} at its deadline otherwise ({@link
 * TaskEngine}'s deadline step).
 *
 * <p>Where a missing credential is found: planning, dispatching and a delete task's walk
 * ({@link #accessOf}: the access values put in a chunk message come from here), a mover whose
 * chunk outlived its credential ({@code CHUNK_DONE} with {@code NO_CREDENTIALS},
 * {@link ResultApplier}), and a deactivation. Transfer and delete tasks alike (a delete task's one
 * endpoint is its source).
 */
@Component
public class Activations implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(Activations.class);

    private final TaskRepository taskRepository;
    private final EndpointRepository endpoints;
    private final EndpointAccessService accesses;
    private final EndpointService endpointService;
    private final TaskStore tasks;
    private final TransactionTemplate transactions;
    private final TransactionTemplate reads;
    private final TaskEnding ending;
    private final Wakeup wakeup;
    // after an activation's commit its thread's transaction is spent: writes joined to it would
    // never commit, so the listeners work on a thread of their own
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "ferry-activations");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * @param taskRepository tasks
     * @param endpoints endpoints
     * @param accesses the owners' activated credentials
     * @param endpointService whether clear-text endpoints are allowed
     * @param tasks task rows
     * @param transactions transactions
     * @param ending suspends and ends tasks
     * @param wakeup wakes the scheduler after a resume
     */
    public Activations(
            TaskRepository taskRepository,
            EndpointRepository endpoints,
            EndpointAccessService accesses,
            EndpointService endpointService,
            TaskStore tasks,
            TransactionTemplate transactions,
            TaskEnding ending,
            Wakeup wakeup) {
        this.taskRepository = taskRepository;
        this.endpoints = endpoints;
        this.accesses = accesses;
        this.endpointService = endpointService;
        this.tasks = tasks;
        this.transactions = transactions;
        this.reads = new TransactionTemplate(transactions.getTransactionManager());
        this.reads.setReadOnly(true);
        this.ending = ending;
        this.wakeup = wakeup;
    }

    /**
     * Both endpoints of a task as its owner reaches them now.
     *
     * @param source the source endpoint's access
     * @param destination the destination endpoint's access
     * @param protection the least protection of every data channel ({@code encrypt_data}: P)
     */
    public record TaskAccess(EndpointAccess source, EndpointAccess destination, ProtectionLevel protection) {}

    /**
     * The task's endpoints as {@link #accessOf} gives them, or the task ended or suspended when it
     * cannot reach them: FAILED for an endpoint that is gone or no longer allowed, INACTIVE for a
     * {@code gsiftp://} endpoint without a usable credential.
     *
     * @param task the task
     * @return the access, or empty when the task was failed or suspended here
     */
    public Optional<TaskAccess> accessOrEnd(Task task) {
        try {
            return Optional.of(inOneRead(() -> new TaskAccess(
                    accessOf(task.getOwnerName(), task.getSourceEndpointId(), task.getSourceEndpoint()),
                    accessOf(task.getOwnerName(), task.getDestinationEndpointId(), task.getDestinationEndpoint()),
                    task.isEncryptData() ? ProtectionLevel.PRIVATE : ProtectionLevel.CLEAR)));
        } catch (PlanningException e) {
            ending.fail(task.getId(), e.code().name(), e.getMessage());
        } catch (ActivationRequiredException e) {
            suspend(task.getId(), e.getMessage());
        }
        return Optional.empty();
    }

    /** Look-ups of a task's endpoints, as {@link #accessOf} and {@link #credentialsExpire} make them. */
    @FunctionalInterface
    public interface Lookup<T> {
        /**
         * @return what was looked up
         * @throws PlanningException as {@link #accessOf} throws it
         * @throws ActivationRequiredException as {@link #accessOf} throws it
         */
        T get() throws PlanningException, ActivationRequiredException;
    }

    /**
     * Runs a task's endpoint look-ups in one read-only transaction (joining the caller's, if any):
     * one connection for all of them, and an endpoint row read once however often it is asked for.
     * Each call reads the rows anew, so an endpoint's change or deactivation counts from the next
     * call on. Writes (failing or suspending the task) belong after it, not inside.
     *
     * @param lookup the look-ups
     * @return what they return
     * @throws PlanningException as the look-ups throw it
     * @throws ActivationRequiredException as the look-ups throw it
     */
    public <T> T inOneRead(Lookup<T> lookup) throws PlanningException, ActivationRequiredException {
        Exception[] thrown = new Exception[1];
        T found = reads.execute(status -> {
            try {
                return lookup.get();
            } catch (PlanningException | ActivationRequiredException e) {
                thrown[0] = e;
                return null;
            }
        });
        if (thrown[0] instanceof PlanningException e) {
            throw e;
        }
        if (thrown[0] instanceof ActivationRequiredException e) {
            throw e;
        }
        return found;
    }

    /**
     * How a task's owner reaches one of its endpoints now.
     *
     * @param owner the task's owner
     * @param endpointId its source or destination endpoint
     * @param name that endpoint's name in the task (for messages)
     * @return the access values (servers, login, the sealed credential or password)
     * @throws PlanningException {@code ENDPOINT_ERROR} if the endpoint is gone, or is a clear-text
     *     endpoint this server no longer allows (the task fails)
     * @throws ActivationRequiredException if it is a {@code gsiftp://} endpoint the owner has no
     *     usable credential for (the task is suspended)
     */
    public EndpointAccess accessOf(String owner, UUID endpointId, String name)
            throws PlanningException, ActivationRequiredException {
        Endpoint endpoint = endpoints
                .findById(endpointId)
                .orElseThrow(() ->
                        new PlanningException(EventCode.ENDPOINT_ERROR, "Endpoint " + name + " no longer exists"));
        if (endpoint.isPersonal() && endpoint.isConnectRevoked()) {
            throw new PlanningException(
                    EventCode.ENDPOINT_ERROR,
                    "Endpoint " + name + " is a personal endpoint whose agent its owner revoked");
        }
        if (!endpointService.allowsClearText() && !endpoint.isGsi()) {
            throw new PlanningException(
                    EventCode.ENDPOINT_ERROR,
                    "Endpoint " + name + " is a clear-text (ftp://) endpoint, which this server no longer allows"
                            + " (ferry.endpoints.allow-clear-text=false)");
        }
        return accesses.access(owner, endpoint);
    }

    /**
     * @param owner a task's owner
     * @param endpointIds the task's endpoints
     * @return when the first of their credentials expires, or null when none has one
     */
    public Instant credentialsExpire(String owner, List<UUID> endpointIds) {
        Instant first = null;
        for (UUID endpointId : endpointIds) {
            Endpoint endpoint = endpoints.findById(endpointId).orElse(null);
            if (endpoint == null) {
                continue;
            }
            Instant expires = accesses.status(owner, endpoint).expireTime();
            if (expires != null && (first == null || expires.isBefore(first))) {
                first = expires;
            }
        }
        return first;
    }

    /**
     * Suspends the task for a missing or expired credential.
     *
     * @param what what happened (e.g. the {@link ActivationRequiredException}'s or the mover's words)
     * @return true if this call suspended it
     */
    public boolean suspend(UUID taskId, String what) {
        boolean suspended = ending.suspend(taskId, description(what));
        if (suspended) {
            log.info("Task {} is INACTIVE: {}", taskId, what);
        }
        return suspended;
    }

    /**
     * A mover stopped a chunk of the task because a credential expired: the task is suspended,
     * unless the owner activated its endpoints again meanwhile (the chunk's files are PENDING
     * again and go out with the new credential).
     *
     * @param what the mover's words
     */
    public void credentialExpired(UUID taskId, String what) {
        Task task = taskRepository.findById(taskId).orElse(null);
        if (task == null || task.getStatus() != TaskStatus.ACTIVE) {
            return;
        }
        if (usable(task)) {
            log.info("Task {}: a chunk's credential expired, the endpoints are activated again: it goes on", taskId);
            wakeup.wake();
            return;
        }
        suspend(taskId, what);
    }

    /**
     * @param what what happened
     * @return the {@code NO_CREDENTIALS} event's text: what happened, and that the task resumes by
     *     itself after an activation
     */
    public static String description(String what) {
        String text = what.strip();
        return text + (text.endsWith(".") ? "" : ".")
                + " The task is INACTIVE: it keeps what it has moved and resumes by itself when the endpoint is"
                + " activated again before the deadline.";
    }

    /** An endpoint was activated: the owner's INACTIVE tasks on it resume if they can. */
    @TransactionalEventListener(fallbackExecution = true)
    public void onEndpointActivated(EndpointActivatedEvent event) {
        async(() -> {
            String name = endpoints
                    .findById(event.endpointId())
                    .map(Endpoint::getCanonicalName)
                    .orElse("The endpoint");
            for (UUID taskId : tasks.usingEndpoint(TaskStatus.INACTIVE, event.ownerName(), event.endpointId())) {
                resumeIfUsable(taskId, "Endpoint " + name + " was activated again: the task resumes");
            }
        });
    }

    /** An endpoint was deactivated: the owner's ACTIVE tasks on it stop and go INACTIVE. */
    @TransactionalEventListener(fallbackExecution = true)
    public void onEndpointDeactivated(EndpointDeactivatedEvent event) {
        async(() -> {
            String name = endpoints
                    .findById(event.endpointId())
                    .map(Endpoint::getCanonicalName)
                    .orElse(event.endpointId().toString());
            for (UUID taskId : tasks.usingEndpoint(TaskStatus.ACTIVE, event.ownerName(), event.endpointId())) {
                suspend(taskId, "Endpoint " + name + " was deactivated: its credential is gone");
            }
        });
    }

    /** On start: INACTIVE tasks whose endpoints are usable now (an activation a stop cut short) resume. */
    @EventListener(ApplicationReadyEvent.class)
    public void resumeUsable() {
        async(() -> {
            for (UUID taskId : tasks.inStatus(TaskType.TRANSFER, TaskStatus.INACTIVE)) {
                resumeIfUsable(taskId, "Both endpoints are usable again: the task resumes");
            }
            for (UUID taskId : tasks.inStatus(TaskType.DELETE, TaskStatus.INACTIVE)) {
                resumeIfUsable(taskId, "The endpoint is usable again: the task resumes");
            }
        });
    }

    private void resumeIfUsable(UUID taskId, String why) {
        Task task = taskRepository.findById(taskId).orElse(null);
        if (task == null || !usable(task)) {
            return; // the other endpoint still waits
        }
        if (Boolean.TRUE.equals(transactions.execute(status -> tasks.resume(taskId, why, Instant.now())))) {
            log.info("Task {} resumes: {}", taskId, why);
            wakeup.wake();
        }
    }

    private boolean usable(Task task) {
        try {
            for (UUID endpointId : endpointIds(task)) {
                Endpoint endpoint = endpoints.findById(endpointId).orElse(null);
                if (endpoint != null) {
                    accesses.access(task.getOwnerName(), endpoint);
                }
            }
            return true;
        } catch (ActivationRequiredException stillMissing) {
            return false;
        }
    }

    /** @return the task's endpoints: source and destination, or a delete task's one */
    private static List<UUID> endpointIds(Task task) {
        return task.getDestinationEndpointId() == null
                ? List.of(task.getSourceEndpointId())
                : List.of(task.getSourceEndpointId(), task.getDestinationEndpointId());
    }

    private void async(Runnable work) {
        worker.submit(() -> {
            try {
                work.run();
            } catch (RuntimeException e) {
                log.error("Handling an endpoint activation change failed", e);
            }
        });
    }

    @Override
    public void destroy() {
        worker.shutdownNow();
    }
}
