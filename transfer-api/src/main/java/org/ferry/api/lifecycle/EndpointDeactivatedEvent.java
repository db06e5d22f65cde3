package org.ferry.api.lifecycle;

import java.util.UUID;

/**
 * Published after a user deactivated an endpoint (the credential is gone); the scheduler stops the
 * user's tasks on it, which go INACTIVE until it is activated again.
 *
 * @param endpointId the endpoint
 * @param ownerName the user whose credential it was
 */
public record EndpointDeactivatedEvent(UUID endpointId, String ownerName) {}
