package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A personal access token. The token itself is only in the answer that made it; lists show
 * the rest.
 *
 * @param dataType {@code access_token}
 * @param id the token's id (for revoking; not the token)
 * @param username the account it acts as
 * @param description what it is for, or null
 * @param createdTime ISO-8601 UTC
 * @param expiresTime ISO-8601 UTC, or null for never
 * @param lastUsedTime ISO-8601 UTC to the minute, or null
 * @param token the bearer token, only when just made
 */
public record AccessTokenDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        String id,
        String username,
        String description,
        @JsonProperty("created_time") String createdTime,
        @JsonProperty("expires_time") String expiresTime,
        @JsonProperty("last_used_time") String lastUsedTime,
        @JsonInclude(JsonInclude.Include.NON_NULL) String token) {}
