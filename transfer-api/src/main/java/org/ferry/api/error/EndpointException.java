package org.ferry.api.error;

/**
 * The endpoint's GridFTP server failed or could not be reached (HTTP 502,
 * {@code EndpointError}); the message carries its reply.
 */
public class EndpointException extends FerryException {

    /** The Globus code. */
    public static final String CODE = "EndpointError";

    /** @param message the endpoint and its reply */
    public EndpointException(String message) {
        super(CODE, null, message);
    }
}
