package org.ferry.api.error;

/**
 * The request contradicts the resource's state (HTTP 409): a name taken, a task that has ended,
 * a directory that exists.
 */
public class ConflictException extends FerryException {

    /** The default code. */
    public static final String CODE = "ClientError.Conflict";

    /**
     * @param field the field at fault, or null
     * @param message for people
     */
    public ConflictException(String field, String message) {
        super(CODE, field, message);
    }

    /**
     * @param code a more specific code, e.g. {@code ExternalError.MkdirFailed.Exists}
     * @param field the field at fault, or null
     * @param message for people
     */
    public ConflictException(String code, String field, String message) {
        super(code, field, message);
    }
}
