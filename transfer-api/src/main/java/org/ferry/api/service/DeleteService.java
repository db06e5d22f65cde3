package org.ferry.api.service;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.ferry.api.document.DeleteRequest;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.error.NotSupportedException;
import org.ferry.api.identity.Caller;
import org.ferry.api.lifecycle.DeleteSubmittedEvent;
import org.ferry.api.store.NewTask;
import org.ferry.api.store.TaskStore;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Validates a delete document, stores a DELETE task and its paths, and publishes
 * {@link DeleteSubmittedEvent}. A delete task's deadline defaults to 24 hours after submission
 * (service-semantics b.4).
 */
@Service
public class DeleteService {

    /** The deadline of a delete task that names none. */
    public static final Duration DEFAULT_DEADLINE = Duration.ofHours(24);

    private final TaskStore store;
    private final EndpointService endpoints;
    private final SubmissionIds submissionIds;
    private final ApiLimits limits;
    private final ApplicationEventPublisher publisher;

    /**
     * @param store where the task is stored
     * @param endpoints endpoint lookup
     * @param submissionIds duplicate detection
     * @param limits items per task
     * @param publisher where lifecycle events go
     */
    public DeleteService(
            TaskStore store,
            EndpointService endpoints,
            SubmissionIds submissionIds,
            ApiLimits limits,
            ApplicationEventPublisher publisher) {
        this.store = store;
        this.endpoints = endpoints;
        this.submissionIds = submissionIds;
        this.limits = limits;
        this.publisher = publisher;
    }

    /**
     * @param caller the submitting user
     * @param request the delete document
     * @return the task
     * @throws InvalidRequestException naming the field for an invalid value
     * @throws NotSupportedException naming the field for an option Ferry does not implement yet
     */
    @Transactional
    public Submission submit(Caller caller, DeleteRequest request) {
        if (request == null) {
            throw new InvalidRequestException(null, "Request body must be a delete document");
        }
        if (request.dataType() != null && !"delete".equals(request.dataType())) {
            throw new InvalidRequestException("DATA_TYPE", "DATA_TYPE must be 'delete'");
        }
        String submissionId = SubmissionIds.chosen(request.submissionId());
        if (Boolean.TRUE.equals(request.interpretGlobs())) {
            throw new NotSupportedException(
                    "interpret_globs", "interpret_globs: glob patterns are not implemented yet");
        }
        String mail = "a delete task sends no e-mail (transfer tasks do); send false or leave it out";
        for (var notify : List.of(
                new Object[] {"notify_on_succeeded", request.notifyOnSucceeded()},
                new Object[] {"notify_on_failed", request.notifyOnFailed()},
                new Object[] {"notify_on_inactive", request.notifyOnInactive()})) {
            if (Boolean.TRUE.equals(notify[1])) {
                throw new NotSupportedException((String) notify[0], notify[0] + ": " + mail);
            }
        }
        if (request.localUser() != null && !request.localUser().isEmpty()) {
            throw new NotSupportedException(
                    "local_user", "local_user: local user mapping is a GCSv5 feature Ferry lacks");
        }
        String label = Labels.check(request.label());
        Instant deadline = TimeValues.parse("deadline", request.deadline());
        List<String> paths = paths(request.items());
        Optional<Submission> earlier = submissionIds.earlier(caller, submissionId);
        if (earlier.isPresent()) {
            return earlier.get();
        }
        Endpoint endpoint = endpoints.resolve(caller, request.endpoint(), "endpoint");
        Instant now = Instant.now();
        UUID taskId = store.create(NewTask.delete(
                submissionId,
                caller.name(),
                label,
                now,
                deadline != null ? deadline : now.plus(DEFAULT_DEADLINE),
                endpoint,
                Boolean.TRUE.equals(request.recursive()),
                Boolean.TRUE.equals(request.ignoreMissing()),
                paths));
        publisher.publishEvent(new DeleteSubmittedEvent(taskId));
        return new Submission(taskId, submissionId, false);
    }

    private List<String> paths(List<DeleteRequest.DeleteItem> data) {
        if (data == null || data.isEmpty()) {
            throw new InvalidRequestException("DATA", "DATA must hold at least one delete_item");
        }
        if (data.size() > limits.maxItemsPerTask()) {
            throw new InvalidRequestException(
                    "DATA", "DATA holds " + data.size() + " items; at most " + limits.maxItemsPerTask() + " per task");
        }
        List<String> paths = new ArrayList<>(data.size());
        for (int i = 0; i < data.size(); i++) {
            String prefix = "DATA[" + i + "]";
            DeleteRequest.DeleteItem item = data.get(i);
            if (item == null) {
                throw new InvalidRequestException(prefix, prefix + " must be a delete_item object");
            }
            if (item.dataType() != null && !"delete_item".equals(item.dataType())) {
                throw new InvalidRequestException(prefix + ".DATA_TYPE", prefix + ".DATA_TYPE must be 'delete_item'");
            }
            String path = ApiPaths.absolute(prefix + ".path", item.path());
            if (path.equals("/")) {
                throw new InvalidRequestException(prefix + ".path", prefix + ".path: the root cannot be deleted");
            }
            paths.add(path);
        }
        return paths;
    }
}
