package org.ferry.api.error;

/**
 * A field asks for something Ferry does not implement (yet): HTTP 400 with code
 * {@code ClientError.BadRequest.NotSupported}, naming the field, so that a client never
 * believes an option took effect when it did not.
 */
public class NotSupportedException extends InvalidRequestException {

    /** The code of refused options. */
    public static final String CODE = "ClientError.BadRequest.NotSupported";

    /**
     * @param field the field, e.g. {@code encrypt_data}
     * @param message what is not supported and what to send instead
     */
    public NotSupportedException(String field, String message) {
        super(CODE, field, message);
    }
}
