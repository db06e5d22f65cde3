package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * {@code GET /me}: who the request authenticated as.
 *
 * @param dataType {@code identity}
 * @param id the account's id
 * @param username the account's user name
 * @param role {@code USER} or {@code ADMIN}
 * @param authentication {@code TOKEN}, {@code PASSWORD}, {@code CERTIFICATE} or {@code OIDC}
 * @param subject the certificate identity's DN or the JWT's subject, or null
 */
public record IdentityDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        String id,
        String username,
        String role,
        String authentication,
        String subject) {}
