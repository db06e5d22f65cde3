package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The body of {@code POST /user} (create) and {@code PUT /user/{name}} (change; null keeps a
 * value).
 *
 * @param dataType {@code user} or absent
 * @param username the user name (create only)
 * @param password 8-72 characters, or null (create: an account without a password)
 * @param role {@code USER} (default) or {@code ADMIN}
 * @param disabled whether it may not log in
 * @param email the address for task notifications; empty clears it; absent keeps it
 */
public record UserRequest(
        @JsonProperty("DATA_TYPE") String dataType,
        String username,
        String password,
        String role,
        Boolean disabled,
        String email) {}
