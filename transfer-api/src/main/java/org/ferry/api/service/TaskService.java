package org.ferry.api.service;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.ferry.api.credential.ActivationRequiredException;
import org.ferry.api.credential.EndpointAccessService;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.EventCode;
import org.ferry.api.domain.Task;
import org.ferry.api.domain.TaskEvent;
import org.ferry.api.domain.TaskStatus;
import org.ferry.api.domain.TransferItem;
import org.ferry.api.lifecycle.TaskCancelRequestedEvent;
import org.ferry.api.lifecycle.TaskSubmittedEvent;
import org.ferry.api.repository.TaskEventRepository;
import org.ferry.api.repository.TaskRepository;
import org.ferry.api.repository.TransferItemRepository;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Task submission, queries and cancel. Submission and cancel publish {@link TaskSubmittedEvent}
 * and {@link TaskCancelRequestedEvent}; the scheduler acts on them after the transaction commits.
 */
@Service
public class TaskService {

    /** Description of the fatal error a cancel records. */
    public static final String CANCELED_DESCRIPTION = "The task was cancelled by its owner";

    private final TaskRepository tasks;
    private final TransferItemRepository items;
    private final TaskEventRepository events;
    private final EndpointService endpoints;
    private final EndpointAccessService accesses;
    private final ApplicationEventPublisher publisher;

    /**
     * @param tasks task store
     * @param items transfer item store
     * @param events event store
     * @param endpoints endpoint lookup
     * @param accesses the submitter's activation of each endpoint
     * @param publisher where lifecycle events go
     */
    public TaskService(
            TaskRepository tasks,
            TransferItemRepository items,
            TaskEventRepository events,
            EndpointService endpoints,
            EndpointAccessService accesses,
            ApplicationEventPublisher publisher) {
        this.tasks = tasks;
        this.items = items;
        this.events = events;
        this.endpoints = endpoints;
        this.accesses = accesses;
        this.publisher = publisher;
    }

    /**
     * Outcome of a submission.
     *
     * @param task the task (new, or the earlier one with the same submission id)
     * @param duplicate true if the submission id had been used before
     */
    public record Submission(Task task, boolean duplicate) {}

    /**
     * Stores an ACTIVE task and its items and queues it. A submission id used before returns the
     * earlier task (at most once execution).
     *
     * @param caller the submitting user
     * @param request the validated transfer document
     * @return the task
     * @throws ApiException 404 for an unknown endpoint, 409 for a submission id of another user's;
     *     400 naming {@code encrypt_data} when an endpoint cannot encrypt (a clear-text
     *     {@code ftp://} server), 400 naming the endpoint field when this server forbids
     *     clear-text endpoints, 409 {@code ClientError.ActivationRequired} naming the endpoint
     *     field when a {@code gsiftp://} endpoint is not activated (unless
     *     {@code skip_activation_check}: the task then waits INACTIVE)
     * @throws org.springframework.dao.DataIntegrityViolationException if a concurrent submission
     *     with the same id won; call {@link #findDuplicate} then
     */
    @Transactional
    public Submission submit(String caller, TransferRequest request) {
        String submissionId = request.submissionId() != null
                ? request.submissionId()
                : UUID.randomUUID().toString();
        Optional<Submission> duplicate = findDuplicate(caller, submissionId);
        if (duplicate.isPresent()) {
            return duplicate.get();
        }
        Endpoint source = endpoints.resolve(caller, request.sourceEndpoint(), "source_endpoint");
        Endpoint destination = endpoints.resolve(caller, request.destinationEndpoint(), "destination_endpoint");
        endpoints.checkAllowed(source, "source_endpoint");
        endpoints.checkAllowed(destination, "destination_endpoint");
        if (request.encryptData()) {
            for (Endpoint endpoint : List.of(source, destination)) {
                if (!endpoint.isGsi()) {
                    throw ApiException.badRequest(
                            "encrypt_data",
                            "encrypt_data needs endpoints that can encrypt data channels, and "
                                    + endpoint.getCanonicalName() + " is a clear-text endpoint (" + endpoint.getUrl()
                                    + "): use gsiftp:// endpoints or submit without encrypt_data");
                }
            }
        }
        if (!request.skipActivationCheck()) {
            checkActivated(caller, source, "source_endpoint");
            checkActivated(caller, destination, "destination_endpoint");
        }
        Task task = tasks.saveAndFlush(new Task(
                submissionId,
                caller,
                request.label(),
                request.deadline(),
                source,
                destination,
                request.syncLevel(),
                request.verifyChecksum(),
                request.encryptData()));
        List<TransferItem> rows = new ArrayList<>();
        for (int i = 0; i < request.items().size(); i++) {
            TransferRequest.Item item = request.items().get(i);
            rows.add(new TransferItem(task.getId(), i, item.sourcePath(), item.destinationPath(), item.recursive()));
        }
        items.saveAll(rows);
        publisher.publishEvent(new TaskSubmittedEvent(task.getId()));
        return new Submission(task, false);
    }

    private void checkActivated(String caller, Endpoint endpoint, String field) {
        if (endpoint.isGsi()) {
            try {
                accesses.usableCredential(caller, endpoint);
            } catch (ActivationRequiredException e) {
                throw ApiException.activationRequired(field, e.getMessage());
            }
        }
    }

    /**
     * @param caller the user
     * @param submissionId a submission id
     * @return the earlier submission with this id, if any
     * @throws ApiException 409 if another user used the id
     */
    @Transactional(readOnly = true)
    public Optional<Submission> findDuplicate(String caller, String submissionId) {
        Optional<Task> existing = tasks.findBySubmissionId(submissionId);
        if (existing.isPresent() && !existing.get().getOwnerName().equals(caller)) {
            throw ApiException.conflict("submission_id", "submission_id is already in use");
        }
        return existing.map(t -> new Submission(t, true));
    }

    /**
     * @param caller the user
     * @param taskId task id text
     * @return the caller's task
     * @throws ApiException 404 if absent, malformed, or another user's
     */
    @Transactional(readOnly = true)
    public Task get(String caller, String taskId) {
        UUID id;
        try {
            id = UUID.fromString(taskId);
        } catch (IllegalArgumentException e) {
            throw ApiException.notFound("task_id", "Task '" + taskId + "' not found");
        }
        return tasks.findById(id)
                .filter(t -> t.getOwnerName().equals(caller))
                .orElseThrow(() -> ApiException.notFound("task_id", "Task '" + taskId + "' not found"));
    }

    /**
     * @param caller the user
     * @param filter null or {@code status:ACTIVE,FAILED} (clauses separated by {@code /})
     * @param limit page size
     * @param offset first row
     * @return the caller's tasks, newest first
     * @throws ApiException 400 naming {@code filter} for an unknown clause or status
     */
    @Transactional(readOnly = true)
    public Page<Task> list(String caller, String filter, int limit, int offset) {
        Set<TaskStatus> statuses = statusFilter(filter);
        Pageable page = new OffsetPage(offset, limit, Sort.by(Sort.Direction.DESC, "requestTime"));
        return statuses == null
                ? tasks.findByOwnerName(caller, page)
                : tasks.findByOwnerNameAndStatusIn(caller, statuses, page);
    }

    private static Set<TaskStatus> statusFilter(String filter) {
        if (filter == null || filter.isBlank()) {
            return null;
        }
        Set<TaskStatus> statuses = null;
        for (String clause : filter.split("/")) {
            int colon = clause.indexOf(':');
            String key = colon < 0 ? clause : clause.substring(0, colon);
            if (key.equals("type")) {
                continue; // only TRANSFER tasks exist
            }
            if (!key.equals("status") || colon < 0) {
                throw ApiException.badRequest("filter", "Unsupported filter clause '" + clause + "'");
            }
            statuses = EnumSet.noneOf(TaskStatus.class);
            for (String value : clause.substring(colon + 1).split(",")) {
                try {
                    statuses.add(TaskStatus.valueOf(value.trim()));
                } catch (IllegalArgumentException e) {
                    throw ApiException.badRequest("filter", "Unknown status '" + value + "'");
                }
            }
        }
        return statuses;
    }

    /**
     * @param caller the user
     * @param taskId the task
     * @param filter null, {@code is_error:1} or {@code is_error:0}
     * @param limit page size
     * @param offset first row
     * @return the task's events, newest first
     * @throws ApiException 404 for an unknown task, 400 for a bad filter
     */
    @Transactional(readOnly = true)
    public Page<TaskEvent> events(String caller, String taskId, String filter, int limit, int offset) {
        Task task = get(caller, taskId);
        Pageable page = new OffsetPage(offset, limit, Sort.by(Sort.Direction.DESC, "id"));
        if (filter == null || filter.isBlank()) {
            return events.findByTaskId(task.getId(), page);
        }
        return switch (filter.trim()) {
            case "is_error:1", "is_error:true" -> events.findByTaskIdAndError(task.getId(), true, page);
            case "is_error:0", "is_error:false" -> events.findByTaskIdAndError(task.getId(), false, page);
            default -> throw ApiException.badRequest("filter", "Unsupported filter '" + filter + "'");
        };
    }

    /**
     * Ends an ACTIVE or INACTIVE task as FAILED with {@code fatal_error.code = CANCELED}, records a
     * CANCELED event and tells the scheduler to stop its workers.
     *
     * @param caller the user
     * @param taskId the task
     * @return true if cancelled now, false if it had already ended
     * @throws ApiException 404 for an unknown task
     */
    @Transactional
    public boolean cancel(String caller, String taskId) {
        Task task = get(caller, taskId);
        int changed = tasks.end(
                task.getId(), TaskStatus.FAILED, EventCode.CANCELED.name(), CANCELED_DESCRIPTION, Instant.now());
        if (changed == 0) {
            return false;
        }
        events.save(new TaskEvent(task.getId(), EventCode.CANCELED, CANCELED_DESCRIPTION, null));
        publisher.publishEvent(new TaskCancelRequestedEvent(task.getId()));
        return true;
    }
}
