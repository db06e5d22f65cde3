package org.ferry.api.lifecycle;

import java.util.UUID;

/**
 * Published (as a Spring application event) after a transfer task was stored; the scheduler
 * listens and plans it. The API never calls the scheduler directly.
 *
 * @param taskId the new task
 */
public record TaskSubmittedEvent(UUID taskId) {}
