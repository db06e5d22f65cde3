package org.ferry.api.service;

import org.springframework.http.HttpStatus;

/** A failure that becomes an API error body (see {@link ApiError}). */
public class ApiException extends RuntimeException {

    /** Code of 400 answers. */
    public static final String BAD_REQUEST = "ClientError.BadRequest";
    /** Code of 404 answers. */
    public static final String NOT_FOUND = "ClientError.NotFound";
    /** Code of 409 answers. */
    public static final String CONFLICT = "ClientError.Conflict";
    /** Code of 409 answers for an endpoint the caller must activate first. */
    public static final String ACTIVATION_REQUIRED = "ClientError.ActivationRequired";
    /** Code of 502 answers. */
    public static final String ENDPOINT_ERROR = "EndpointError";

    private final HttpStatus status;
    private final String code;
    private final String field;

    /**
     * @param status HTTP status
     * @param code API error code
     * @param message message for the caller
     * @param field offending field or null
     */
    public ApiException(HttpStatus status, String code, String message, String field) {
        super(message);
        this.status = status;
        this.code = code;
        this.field = field;
    }

    /** @return a 400 naming the offending field */
    public static ApiException badRequest(String field, String message) {
        return new ApiException(HttpStatus.BAD_REQUEST, BAD_REQUEST, message, field);
    }

    /** @return a 404 */
    public static ApiException notFound(String field, String message) {
        return new ApiException(HttpStatus.NOT_FOUND, NOT_FOUND, message, field);
    }

    /** @return a 409 */
    public static ApiException conflict(String field, String message) {
        return new ApiException(HttpStatus.CONFLICT, CONFLICT, message, field);
    }

    /** @return a 409 {@code ClientError.ActivationRequired}: the endpoint needs activating first */
    public static ApiException activationRequired(String field, String message) {
        return new ApiException(HttpStatus.CONFLICT, ACTIVATION_REQUIRED, message, field);
    }

    /** @return a 502 carrying the endpoint's reply */
    public static ApiException endpointError(String message) {
        return new ApiException(HttpStatus.BAD_GATEWAY, ENDPOINT_ERROR, message, null);
    }

    /** @return the HTTP status */
    public HttpStatus status() {
        return status;
    }

    /** @return the API error code */
    public String code() {
        return code;
    }

    /** @return the offending field or null */
    public String field() {
        return field;
    }
}
