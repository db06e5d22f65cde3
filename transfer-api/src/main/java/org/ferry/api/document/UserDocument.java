package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * An account, as admins see it.
 *
 * @param dataType {@code user}
 * @param id the account's id
 * @param username the user name
 * @param role {@code USER} or {@code ADMIN}
 * @param disabled whether it may not log in
 * @param hasPassword whether it has a password
 * @param createdTime ISO-8601 UTC
 * @param email the address for task notifications, or null
 */
public record UserDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        String id,
        String username,
        String role,
        boolean disabled,
        @JsonProperty("has_password") boolean hasPassword,
        @JsonProperty("created_time") String createdTime,
        String email) {}
