package org.ferry.api.error;

/** A request field has a value the service refuses (HTTP 400, {@code ClientError.BadRequest}). */
public class InvalidRequestException extends FerryException {

    /** The Globus code of bad requests. */
    public static final String CODE = "ClientError.BadRequest";

    /**
     * @param field the offending field, e.g. {@code DATA[0].source_path}, or null for the body
     * @param message for people
     */
    public InvalidRequestException(String field, String message) {
        this(CODE, field, message);
    }

    /**
     * @param code a more specific code under {@code ClientError.BadRequest}
     * @param field the offending field, or null
     * @param message for people
     */
    protected InvalidRequestException(String code, String field, String message) {
        super(code, field, message);
    }
}
