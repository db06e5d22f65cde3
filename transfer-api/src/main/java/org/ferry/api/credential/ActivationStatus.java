package org.ferry.api.credential;

import java.time.Instant;

/**
 * Whether a user can use an endpoint now, as the endpoint document and the activation documents
 * show it.
 *
 * @param needsActivation true for {@code gsiftp://} endpoints
 * @param activated true when the user has a credential for it that has not expired (always true
 *     for endpoints that need none)
 * @param expireTime when the credential stops working; null when it never does (no activation
 *     needed) or there is none
 * @param subject the credential's identity (oneline DN), or null
 */
public record ActivationStatus(boolean needsActivation, boolean activated, Instant expireTime, String subject) {

    /** The status of an endpoint that needs no activation. */
    public static final ActivationStatus NOT_NEEDED = new ActivationStatus(false, true, null, null);

    /**
     * @param now the time to count from
     * @return Globus {@code expires_in}: -1 when it never expires, 0 when not activated, else the
     *     seconds left
     */
    public long expiresInSeconds(Instant now) {
        if (!needsActivation) {
            return -1;
        }
        if (!activated || expireTime == null) {
            return 0;
        }
        return Math.max(0, expireTime.getEpochSecond() - now.getEpochSecond());
    }
}
