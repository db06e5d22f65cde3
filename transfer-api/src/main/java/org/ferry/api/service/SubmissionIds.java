package org.ferry.api.service;

import java.util.Optional;
import java.util.UUID;
import org.ferry.api.domain.Task;
import org.ferry.api.error.ConflictException;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.identity.Caller;
import org.ferry.api.repository.TaskRepository;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Submission ids: a re-submission with an id used before returns the earlier task (at most one
 * execution per id, service-semantics b.2).
 */
@Component
public class SubmissionIds {

    private final TaskRepository tasks;

    /** @param tasks the task store */
    public SubmissionIds(TaskRepository tasks) {
        this.tasks = tasks;
    }

    /**
     * @param submissionId the id sent, or null
     * @return the id to use: the one sent, or a fresh UUID
     * @throws InvalidRequestException naming {@code submission_id} if it is not a UUID
     */
    public static String chosen(String submissionId) {
        if (submissionId == null || submissionId.isEmpty()) {
            return UUID.randomUUID().toString();
        }
        try {
            UUID.fromString(submissionId);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("submission_id", "submission_id must be a UUID from GET /submission_id");
        }
        return submissionId;
    }

    /**
     * @param caller the user
     * @param submissionId the submission id the request sent, or null (an id this server draws
     *     afresh, {@link #chosen}, has no earlier task: no query is made for it)
     * @return the earlier submission with this id, if any
     * @throws ConflictException naming {@code submission_id} if another user used it
     */
    @Transactional(readOnly = true)
    public Optional<Submission> earlier(Caller caller, String submissionId) {
        if (submissionId == null || submissionId.isEmpty()) {
            return Optional.empty();
        }
        Optional<Task> existing = tasks.findBySubmissionId(submissionId);
        if (existing.isPresent() && !caller.owns(existing.get().getOwnerName())) {
            throw new ConflictException("submission_id", "submission_id is already in use");
        }
        return existing.map(t -> new Submission(t.getId(), t.getSubmissionId(), true));
    }
}
