package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The body of {@code POST /access_token}.
 *
 * @param dataType {@code access_token} or absent
 * @param description what the token is for (at most 256 characters), or null
 * @param expiresIn seconds it works, or null (see {@code expires_time})
 * @param expiresTime ISO-8601 time it stops working, or null; neither: it never expires
 */
public record AccessTokenRequest(
        @JsonProperty("DATA_TYPE") String dataType,
        String description,
        @JsonProperty("expires_in") Long expiresIn,
        @JsonProperty("expires_time") String expiresTime) {}
