package org.ferry.api.web;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpStatus;

/**
 * The error body of every 4xx/5xx answer (rest-api.md "Errors").
 *
 * @param status HTTP status
 * @param body the JSON object: DATA_TYPE, code, message, field (may be null), resource, request_id
 */
public record ApiError(HttpStatus status, Map<String, Object> body) {

    /**
     * @param status HTTP status
     * @param code e.g. {@code ClientError.BadRequest}
     * @param message human-readable message
     * @param field offending JSON field or query parameter, or null
     * @param resource the request path
     * @return the error
     */
    public static ApiError of(HttpStatus status, String code, String message, String field, String resource) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("DATA_TYPE", "error");
        body.put("code", code);
        body.put("message", message);
        body.put("field", field);
        body.put("resource", resource);
        body.put("request_id", UUID.randomUUID().toString().replace("-", "").substring(0, 16));
        return new ApiError(status, body);
    }
}
