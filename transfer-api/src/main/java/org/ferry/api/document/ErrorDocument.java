package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The body of every 4xx/5xx answer, as the Globus Transfer API writes it, plus {@code field}.
 *
 * @param dataType always {@code error}
 * @param code Globus error code, e.g. {@code ClientError.BadRequest}, {@code ClientError.NotFound}
 * @param message what went wrong, for people
 * @param requestId the request's id (also in the {@code X-Request-Id} answer header), for logs
 * @param resource the request path
 * @param field the offending JSON field or query parameter ({@code DATA[0].source_path}), or null
 */
public record ErrorDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        String code,
        String message,
        @JsonProperty("request_id") String requestId,
        String resource,
        String field) {

    /** @return an error document */
    public static ErrorDocument of(String code, String message, String requestId, String resource, String field) {
        return new ErrorDocument("error", code, message, requestId, resource, field);
    }
}
