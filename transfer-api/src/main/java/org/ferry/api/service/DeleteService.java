package org.ferry.api.service;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.ferry.api.command.DeleteSubmission;
import org.ferry.api.credential.ActivationRequiredException;
import org.ferry.api.credential.EndpointAccessService;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.error.ConflictException;
import org.ferry.api.error.NotFoundException;
import org.ferry.api.identity.Caller;
import org.ferry.api.lifecycle.DeleteSubmittedEvent;
import org.ferry.api.store.NewTask;
import org.ferry.api.store.TaskStore;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Stores a checked delete task ({@link DeleteSubmission}) and its paths, and publishes
 * {@link DeleteSubmittedEvent}. A delete task's deadline defaults to 24 hours after submission
 * (service-semantics b.4).
 */
@Service
public class DeleteService {

    /** The deadline of a delete task that names none. */
    public static final Duration DEFAULT_DEADLINE = Duration.ofHours(24);

    private final TaskStore store;
    private final EndpointService endpoints;
    private final EndpointAccessService accesses;
    private final SubmissionIds submissionIds;
    private final ApplicationEventPublisher publisher;

    /**
     * @param store where the task is stored
     * @param endpoints endpoint lookup
     * @param accesses the submitter's activation of the endpoint
     * @param submissionIds duplicate detection
     * @param publisher where lifecycle events go
     */
    public DeleteService(
            TaskStore store,
            EndpointService endpoints,
            EndpointAccessService accesses,
            SubmissionIds submissionIds,
            ApplicationEventPublisher publisher) {
        this.store = store;
        this.endpoints = endpoints;
        this.accesses = accesses;
        this.submissionIds = submissionIds;
        this.publisher = publisher;
    }

    /**
     * @param caller the submitting user
     * @param delete the checked delete task
     * @return the task (or the earlier one with the same submission id)
     * @throws NotFoundException for an endpoint the caller cannot see
     * @throws ConflictException for another user's submission id; {@code
     *     ClientError.ActivationRequired} naming {@code endpoint} when a {@code gsiftp://} endpoint
     *     is not activated (unless {@code skip_activation_check}: the task then waits INACTIVE)
     */
    @Transactional
    public Submission submit(Caller caller, DeleteSubmission delete) {
        String submissionId = SubmissionIds.chosen(delete.submissionId());
        Optional<Submission> earlier = submissionIds.earlier(caller, delete.submissionId());
        if (earlier.isPresent()) {
            return earlier.get();
        }
        Endpoint endpoint = endpoints.resolve(caller, delete.endpoint(), "endpoint");
        if (!delete.skipActivationCheck() && endpoint.needsActivation()) {
            try {
                accesses.usableCredential(caller.name(), endpoint);
            } catch (ActivationRequiredException e) {
                throw new ConflictException(ActivationRequiredException.CODE, "endpoint", e.getMessage());
            }
        }
        Instant now = Instant.now();
        UUID taskId = store.create(NewTask.delete(
                submissionId,
                caller.name(),
                delete.label(),
                now,
                delete.deadline() != null ? delete.deadline() : now.plus(DEFAULT_DEADLINE),
                endpoint,
                delete.recursive(),
                delete.ignoreMissing(),
                delete.paths()));
        publisher.publishEvent(new DeleteSubmittedEvent(taskId));
        return new Submission(taskId, submissionId, false);
    }
}
