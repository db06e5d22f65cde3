package org.ferry.api.service;

import org.ferry.api.domain.Task;

/**
 * Outcome of a transfer or delete submission.
 *
 * @param task the task (new, or the earlier one with the same submission id)
 * @param duplicate true if the submission id had been used before
 */
public record Submission(Task task, boolean duplicate) {}
