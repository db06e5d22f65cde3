package org.ferry.api.lifecycle;

import java.util.UUID;

/**
 * Published (as a Spring application event) when the scheduler wrote something about a task: its
 * counters, an event, its end. Live views (the web app's task page) listen after the transaction
 * commits and push the new state to their readers; nothing depends on receiving every one.
 *
 * @param taskId the task that changed
 */
public record TaskChangedEvent(UUID taskId) {}
