package org.ferry.api.lifecycle;

import java.util.UUID;

/**
 * Published after the API marked a task FAILED/CANCELED; the scheduler listens and stops the
 * task's workers (closing their sessions aborts transfers in flight).
 *
 * @param taskId the cancelled task
 */
public record TaskCancelRequestedEvent(UUID taskId) {}
