package org.ferry.api.lifecycle;

import java.util.UUID;

/**
 * Published after a user activated an endpoint (the credential is stored); the scheduler resumes
 * the user's INACTIVE tasks that waited for it.
 *
 * @param endpointId the endpoint
 * @param ownerName the user whose credential it is
 */
public record EndpointActivatedEvent(UUID endpointId, String ownerName) {}
