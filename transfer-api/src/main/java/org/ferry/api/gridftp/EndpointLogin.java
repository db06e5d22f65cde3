package org.ferry.api.gridftp;

import org.ferry.api.domain.Endpoint;
import org.ferry.mover.client.GridFtpUrl;

/**
 * Where and how to log in to an endpoint, detached from the JPA entity so worker threads can keep
 * it. {@link #toString()} hides the password.
 *
 * @param canonicalName {@code owner#name}, for messages
 * @param url the GridFTP URL with the endpoint's user and password
 */
public record EndpointLogin(String canonicalName, GridFtpUrl url) {

    /** Password the Globus tools send for anonymous logins. */
    private static final String ANONYMOUS_PASSWORD = "globus@";

    /**
     * @param endpoint a stored endpoint
     * @return its login
     * @throws IllegalArgumentException if its URL is malformed
     */
    public static EndpointLogin of(Endpoint endpoint) {
        GridFtpUrl parsed = GridFtpUrl.parse(endpoint.getUrl());
        String password = endpoint.getPassword();
        if (password.isEmpty() && "anonymous".equals(endpoint.getUsername())) {
            password = ANONYMOUS_PASSWORD;
        }
        GridFtpUrl url =
                new GridFtpUrl(parsed.scheme(), parsed.host(), parsed.port(), endpoint.getUsername(), password, "/");
        return new EndpointLogin(endpoint.getCanonicalName(), url);
    }

    @Override
    public String toString() {
        return canonicalName + " (" + url + ")";
    }
}
