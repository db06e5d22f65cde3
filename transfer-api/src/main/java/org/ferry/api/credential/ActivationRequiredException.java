package org.ferry.api.credential;

/**
 * A {@code gsiftp://} endpoint has no usable credential for a user: never activated, expired, or
 * deactivated. The message says which endpoint and what to do.
 */
public class ActivationRequiredException extends Exception {
    private static final long serialVersionUID = 1L;

    /** The API's code when a request needs an endpoint the caller has not activated (409). */
    public static final String CODE = "ClientError.ActivationRequired";

    private final String endpoint;

    /**
     * @param endpoint the endpoint's canonical name
     * @param message what is wrong and what to do
     */
    public ActivationRequiredException(String endpoint, String message) {
        super(message);
        this.endpoint = endpoint;
    }

    /** @return the endpoint's canonical name */
    public String endpoint() {
        return endpoint;
    }
}
