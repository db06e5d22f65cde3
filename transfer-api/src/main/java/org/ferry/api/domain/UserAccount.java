package org.ferry.api.domain;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/**
 * A Ferry account: a user name, a role, an optional password hash (Spring Security's
 * {@code {id}hash} form, bcrypt by default) and a disabled flag. Access tokens are
 * {@link AccessToken} rows.
 */
@Entity
@Table(name = "ferry_user")
public class UserAccount {

    @Id
    private UUID id;

    @Column(nullable = false, unique = true)
    private String name;

    @Column(name = "password_hash")
    private String passwordHash;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    private Role role;

    @Column(nullable = false)
    private boolean disabled;

    @Column(name = "created_time", nullable = false)
    private Instant createdTime;

    private String email;

    /** For JPA. */
    protected UserAccount() {}

    /**
     * @param name user name, the owner part of canonical endpoint names
     * @param role the role
     * @param passwordHash the encoded password, or null for an account that logs in otherwise
     *     (token, certificate, OIDC)
     */
    public UserAccount(String name, Role role, String passwordHash) {
        this.id = UUID.randomUUID();
        this.name = name;
        this.role = role;
        this.passwordHash = passwordHash;
        this.createdTime = Instant.now();
    }

    /** @return the account's id */
    public UUID getId() {
        return id;
    }

    /** @return the user name */
    public String getName() {
        return name;
    }

    /** @return the encoded password or null */
    public String getPasswordHash() {
        return passwordHash;
    }

    /** @return the role */
    public Role getRole() {
        return role;
    }

    /** @return whether the account may not log in */
    public boolean isDisabled() {
        return disabled;
    }

    /** @return when it was created */
    public Instant getCreatedTime() {
        return createdTime;
    }

    /** @param encoded the new encoded password, or null to remove it */
    public void setPasswordHash(String encoded) {
        this.passwordHash = encoded;
    }

    /** @param newRole the new role */
    public void setRole(Role newRole) {
        this.role = newRole;
    }

    /** @param newDisabled whether the account may not log in */
    public void setDisabled(boolean newDisabled) {
        this.disabled = newDisabled;
    }

    /** @return the e-mail address for notifications, or null */
    public String getEmail() {
        return email;
    }

    /** @param email the e-mail address for notifications, or null */
    public void setEmail(String email) {
        this.email = email;
    }
}
