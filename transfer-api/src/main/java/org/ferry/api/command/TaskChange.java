package org.ferry.api.command;

import java.time.Instant;

/**
 * A change of an open task: its label and deadline (each null to keep). A deadline in the past is
 * allowed: the task then ends EXPIRED at once.
 *
 * @param label the new label, or null
 * @param deadline the new deadline, or null
 */
public record TaskChange(String label, Instant deadline) {}
