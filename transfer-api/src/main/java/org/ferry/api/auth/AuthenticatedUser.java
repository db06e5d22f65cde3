package org.ferry.api.auth;

/**
 * The caller of an API request, put on the request by {@link org.ferry.api.web.BearerTokenFilter}.
 *
 * @param name the user name
 */
public record AuthenticatedUser(String name) {

    /** Request attribute under which the filter stores the caller. */
    public static final String REQUEST_ATTRIBUTE = "org.ferry.api.auth.AuthenticatedUser";
}
