package org.ferry.mover.access;

import java.io.IOException;
import java.time.Instant;

/**
 * An endpoint's activated credential has expired (or expires before a session could use it): no
 * retry helps until the owner activates the endpoint again. Fault code {@code NO_CREDENTIALS}.
 */
public class CredentialExpiredException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String endpoint;
    private final Instant notAfter;

    /**
     * @param endpoint the endpoint's canonical name
     * @param notAfter when the credential stopped (or stops) working
     */
    public CredentialExpiredException(String endpoint, Instant notAfter) {
        super("the credential activated for endpoint " + endpoint + " expired at " + notAfter
                + "; activate the endpoint again");
        this.endpoint = endpoint;
        this.notAfter = notAfter;
    }

    /** @return the endpoint's canonical name */
    public String endpoint() {
        return endpoint;
    }

    /** @return when the credential stopped working */
    public Instant notAfter() {
        return notAfter;
    }
}
