package org.ferry.api.domain;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/** A Ferry user: a name and the SHA-256 hash of its bearer token (the token is never stored). */
@Entity
@Table(name = "ferry_user")
public class UserAccount {

    @Id
    private UUID id;

    @Column(nullable = false, unique = true)
    private String name;

    @Column(name = "token_hash", nullable = false, unique = true)
    private String tokenHash;

    @Column(name = "created_time", nullable = false)
    private Instant createdTime;

    /** For JPA. */
    protected UserAccount() {}

    /**
     * @param name user name, the owner part of canonical endpoint names
     * @param tokenHash lowercase hex SHA-256 of the bearer token
     */
    public UserAccount(String name, String tokenHash) {
        this.id = UUID.randomUUID();
        this.name = name;
        this.tokenHash = tokenHash;
        this.createdTime = Instant.now();
    }

    /** @return the user's id */
    public UUID getId() {
        return id;
    }

    /** @return the user's name */
    public String getName() {
        return name;
    }

    /** @return the hash of the user's bearer token */
    public String getTokenHash() {
        return tokenHash;
    }
}
