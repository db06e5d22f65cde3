package org.ferry.cli.api;

/**
 * An error answer (HTTP 4xx or 5xx) from the Ferry API, parsed from its error document
 * ({@code {"DATA_TYPE":"error","code":...,"message":...,"field":...}}).
 */
public class ApiException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int httpStatus;
    private final String code;
    private final String field;

    /**
     * Creates the exception.
     *
     * @param httpStatus the HTTP status, 400 to 599
     * @param code the API error code such as {@code ClientError.BadRequest}, or {@code HTTP 404}
     *     when the body was not an error document
     * @param message the API's message
     * @param field the offending request field such as {@code DATA[0].source_path}, or null
     */
    public ApiException(int httpStatus, String code, String message, String field) {
        super(message);
        this.httpStatus = httpStatus;
        this.code = code;
        this.field = field;
    }

    /** @return the HTTP status, 400 to 599 */
    public int httpStatus() {
        return httpStatus;
    }

    /** @return the API error code, e.g. {@code ClientError.NotFound} */
    public String code() {
        return code;
    }

    /** @return the offending request field, or null when the API named none */
    public String field() {
        return field;
    }
}
