package org.ferry.api.error;

/**
 * The named resource does not exist, or the caller may not see it (HTTP 404,
 * {@code ClientError.NotFound}): another user's private resources answer as absent.
 */
public class NotFoundException extends FerryException {

    /** The Globus code. */
    public static final String CODE = "ClientError.NotFound";

    /**
     * @param field the field or parameter that named it, or null
     * @param message for people
     */
    public NotFoundException(String field, String message) {
        super(CODE, field, message);
    }
}
