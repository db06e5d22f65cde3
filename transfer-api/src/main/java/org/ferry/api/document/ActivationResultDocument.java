package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The answer of {@code POST /endpoint/{id}/autoactivate} (the historical GCSv4 activation).
 *
 * @param dataType {@code activation_result}
 * @param code e.g. {@code AlreadyActivated}
 * @param message the outcome for people
 * @param endpoint the endpoint's canonical name
 * @param expiresIn seconds the activation lasts; -1: never expires
 * @param resource the request path
 * @param requestId the request's id
 */
public record ActivationResultDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        String code,
        String message,
        String endpoint,
        @JsonProperty("expires_in") long expiresIn,
        String resource,
        @JsonProperty("request_id") String requestId) {}
