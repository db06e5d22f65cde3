package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The body of {@code POST /ssh_key}.
 *
 * @param dataType {@code ssh_key} or absent
 * @param publicKey one OpenSSH authorized_keys line ({@code ssh-ed25519 AAAA... comment})
 * @param description what the key is (at most 256 characters), or null for the key's comment
 */
public record SshKeyRequest(
        @JsonProperty("DATA_TYPE") String dataType,
        @JsonProperty("public_key") String publicKey,
        String description) {}
