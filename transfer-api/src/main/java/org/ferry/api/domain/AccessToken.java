package org.ferry.api.domain;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/** A personal access token of an account: only its SHA-256 hash is stored. */
@Entity
@Table(name = "access_token")
public class AccessToken {

    @Id
    private UUID id;

    @Column(name = "account_id", nullable = false)
    private UUID accountId;

    @Column(name = "token_hash", nullable = false, unique = true)
    private String tokenHash;

    private String description;

    @Column(name = "created_time", nullable = false)
    private Instant createdTime;

    @Column(name = "expires_time")
    private Instant expiresTime;

    @Column(name = "last_used_time")
    private Instant lastUsedTime;

    /** For JPA. */
    protected AccessToken() {}

    /**
     * @param accountId the owning account
     * @param tokenHash lowercase hex SHA-256 of the token
     * @param description what it is for, or null
     * @param expiresTime when it stops working, or null for never
     */
    public AccessToken(UUID accountId, String tokenHash, String description, Instant expiresTime) {
        this.id = UUID.randomUUID();
        this.accountId = accountId;
        this.tokenHash = tokenHash;
        this.description = description;
        this.createdTime = Instant.now();
        this.expiresTime = expiresTime;
    }

    /** @return the token's id (not the token) */
    public UUID getId() {
        return id;
    }

    /** @return lowercase hex SHA-256 of the token */
    public String getTokenHash() {
        return tokenHash;
    }

    /** @return the owning account's id */
    public UUID getAccountId() {
        return accountId;
    }

    /** @return the description or null */
    public String getDescription() {
        return description;
    }

    /** @return when it was made */
    public Instant getCreatedTime() {
        return createdTime;
    }

    /** @return when it stops working, or null for never */
    public Instant getExpiresTime() {
        return expiresTime;
    }

    /** @return when it last authenticated a request (to the minute), or null */
    public Instant getLastUsedTime() {
        return lastUsedTime;
    }

    /**
     * @param now the time
     * @return whether it has expired at {@code now}
     */
    public boolean isExpired(Instant now) {
        return expiresTime != null && !now.isBefore(expiresTime);
    }
}
