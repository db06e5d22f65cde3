package org.ferry.api.domain;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/**
 * An SSH public key registered to an account: its holder runs the {@code ferry} commands over
 * ferry-server's SSH port as that account.
 */
@Entity
@Table(name = "ssh_key")
public class SshKey {

    @Id
    private UUID id;

    @Column(name = "account_id", nullable = false)
    private UUID accountId;

    @Column(nullable = false)
    private String fingerprint;

    @Column(name = "public_key", nullable = false)
    private String publicKey;

    private String description;

    @Column(name = "created_time", nullable = false)
    private Instant createdTime;

    @Column(name = "last_used_time")
    private Instant lastUsedTime;

    /** For JPA. */
    protected SshKey() {}

    /**
     * @param accountId the owning account
     * @param fingerprint OpenSSH's {@code SHA256:...} fingerprint
     * @param publicKey the key as an authorized_keys line without comment ({@code ssh-ed25519 AAAA...})
     * @param description what it is (the key's comment by default), or null
     */
    public SshKey(UUID accountId, String fingerprint, String publicKey, String description) {
        this.id = UUID.randomUUID();
        this.accountId = accountId;
        this.fingerprint = fingerprint;
        this.publicKey = publicKey;
        this.description = description;
        this.createdTime = Instant.now();
    }

    /** @return the key's id */
    public UUID getId() {
        return id;
    }

    /** @return the owning account's id */
    public UUID getAccountId() {
        return accountId;
    }

    /** @return OpenSSH's {@code SHA256:...} fingerprint */
    public String getFingerprint() {
        return fingerprint;
    }

    /** @return the key as an authorized_keys line without comment */
    public String getPublicKey() {
        return publicKey;
    }

    /**
     * @return the key's type as OpenSSH names it ({@code ssh-ed25519}, {@code ssh-rsa},
     *     {@code ecdsa-sha2-nistp256}, ...): the stored line's first word
     */
    public String getKeyType() {
        int space = publicKey.indexOf(' ');
        return space < 0 ? publicKey : publicKey.substring(0, space);
    }

    /** @return the description or null */
    public String getDescription() {
        return description;
    }

    /** @return when it was registered */
    public Instant getCreatedTime() {
        return createdTime;
    }

    /** @return when it last signed in (to the minute), or null */
    public Instant getLastUsedTime() {
        return lastUsedTime;
    }
}
