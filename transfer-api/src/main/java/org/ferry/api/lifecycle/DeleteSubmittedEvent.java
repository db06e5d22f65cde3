package org.ferry.api.lifecycle;

import java.util.UUID;

/**
 * Published after a DELETE task was stored; the scheduler listens and runs it.
 *
 * @param taskId the new task
 */
public record DeleteSubmittedEvent(UUID taskId) {}
