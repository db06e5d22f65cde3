package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The answer of an operation that returns no resource ({@code DATA_TYPE} {@code result},
 * {@code mkdir_result}, ...): a code such as {@code Deleted}, {@code Canceled},
 * {@code DirectoryCreated}, and a message.
 *
 * @param dataType {@code result} or an operation's result type
 * @param code the outcome
 * @param message the outcome for people
 * @param resource the request path
 * @param requestId the request's id
 */
public record ResultDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        String code,
        String message,
        String resource,
        @JsonProperty("request_id") String requestId) {}
