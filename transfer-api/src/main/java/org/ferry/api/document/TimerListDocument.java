package org.ferry.api.document;

import java.util.List;

/**
 * {@code GET /timer}: the caller's timers (an admin's: everybody's), oldest first.
 *
 * @param timers the timers
 */
public record TimerListDocument(List<TimerDocument> timers) {}
