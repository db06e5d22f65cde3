package org.ferry.api.error;

/**
 * Base of the service layer's failures that a caller can act on.
 *
 * <p>{@link #code()} is the Globus error code the API answers with; {@link #field()} the JSON
 * field or query parameter at fault, or null.
 */
public abstract class FerryException extends RuntimeException {

    private final String code;
    private final String field;

    /**
     * @param code the Globus error code, e.g. {@code ClientError.BadRequest}
     * @param field the offending field or null
     * @param message for people; names the field where there is one
     */
    protected FerryException(String code, String field, String message) {
        super(message);
        this.code = code;
        this.field = field;
    }

    /** @return the Globus error code */
    public String code() {
        return code;
    }

    /** @return the offending field, or null */
    public String field() {
        return field;
    }
}
