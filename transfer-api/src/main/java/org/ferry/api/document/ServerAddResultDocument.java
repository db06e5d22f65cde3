package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The answer of {@code POST /endpoint/{id}/server}.
 *
 * @param dataType {@code endpoint_server_add_result}
 * @param code {@code Created}
 * @param message for people
 * @param id the new server's id
 * @param resource the request path
 * @param requestId the request's id
 */
public record ServerAddResultDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        String code,
        String message,
        long id,
        String resource,
        @JsonProperty("request_id") String requestId) {}
