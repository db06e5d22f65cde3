package org.ferry.api.service;

import java.util.UUID;

/**
 * Outcome of a transfer or delete submission.
 *
 * @param taskId the task (new, or the earlier one with the same submission id)
 * @param submissionId its submission id
 * @param duplicate true if the submission id had been used before
 */
public record Submission(UUID taskId, String submissionId, boolean duplicate) {}
