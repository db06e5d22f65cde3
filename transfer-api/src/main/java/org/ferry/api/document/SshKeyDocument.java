package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * An SSH public key registered to an account ({@code GET /ssh_key_list}, {@code POST /ssh_key}).
 *
 * @param dataType {@code ssh_key}
 * @param id the key's id
 * @param username the owning account
 * @param fingerprint OpenSSH's {@code SHA256:...} fingerprint
 * @param publicKey the key as an authorized_keys line without comment
 * @param description what it is, or null
 * @param createdTime when it was registered (ISO-8601)
 * @param lastUsedTime when it last signed in (to the minute), or null
 */
public record SshKeyDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        String id,
        String username,
        String fingerprint,
        @JsonProperty("public_key") String publicKey,
        String description,
        @JsonProperty("created_time") String createdTime,
        @JsonProperty("last_used_time") String lastUsedTime) {}
