package org.ferry.api.lifecycle;

import java.time.Instant;
import java.util.UUID;

/**
 * Published after the owner changed an ACTIVE task's deadline ({@code PUT /task/{id}}); the
 * scheduler listens and applies it to the running task.
 *
 * @param taskId the task
 * @param deadline the new deadline, or null for none
 */
public record TaskDeadlineChangedEvent(UUID taskId, Instant deadline) {}
