package org.ferry.cli.api;

/** The Ferry API could not be reached at all (connection refused, unknown host, timeout). */
public class ApiUnreachableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param apiUrl the base URL that was tried
     * @param cause the network error
     */
    public ApiUnreachableException(String apiUrl, Throwable cause) {
        super("cannot reach the Ferry API at " + apiUrl + ": is ferry-server running?", cause);
    }
}
