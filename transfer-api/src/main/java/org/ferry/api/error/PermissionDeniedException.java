package org.ferry.api.error;

/**
 * The caller is known but lacks the right (HTTP 403, {@code ClientError.PermissionDenied}):
 * a user on an admin resource, a write to another user's public endpoint, a refused path.
 */
public class PermissionDeniedException extends FerryException {

    /** The Globus code. */
    public static final String CODE = "ClientError.PermissionDenied";

    /**
     * @param field the field at fault, or null
     * @param message for people
     */
    public PermissionDeniedException(String field, String message) {
        super(CODE, field, message);
    }
}
