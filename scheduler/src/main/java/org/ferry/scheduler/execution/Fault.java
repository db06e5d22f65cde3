package org.ferry.scheduler.execution;

import org.ferry.api.domain.EventCode;

/**
 * A classified failure.
 *
 * @param code the event code ({@code is_error})
 * @param description one line for the event and, when fatal, the task's {@code fatal_error}
 */
public record Fault(EventCode code, String description) {}
