package org.ferry.api.domain;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/**
 * An endpoint: a named GridFTP server and the login Ferry uses for it. Its canonical name is
 * {@code owner#name}. A {@code ftp://} endpoint's password is stored sealed
 * ({@link org.ferry.api.credential.EndpointSecrets}) so the scheduler can log in unattended; it is
 * never returned by the API nor logged. A {@code gsiftp://} endpoint has no password: each user
 * activates it with a credential of their own ({@link EndpointCredential}).
 */
@Entity
@Table(name = "endpoint")
public class Endpoint {

    @Id
    private UUID id;

    @Column(name = "owner_name", nullable = false)
    private String ownerName;

    @Column(name = "canonical_name", nullable = false, unique = true)
    private String canonicalName;

    @Column(name = "display_name", nullable = false)
    private String displayName;

    @Column(nullable = false)
    private String url;

    @Column(nullable = false)
    private String username;

    @Column(name = "password_sealed")
    private String sealedPassword;

    @Column(name = "myproxy_server")
    private String myProxyServer;

    @Column(name = "myproxy_dn")
    private String myProxyDn;

    @Column(name = "created_time", nullable = false)
    private Instant createdTime;

    private String description;

    @Column(name = "is_public", nullable = false)
    private boolean isPublic;

    @Column(name = "default_directory")
    private String defaultDirectory;

    @Column(name = "connect_agent_id")
    private String connectAgentId;

    @Column(name = "connect_revoked", nullable = false)
    private boolean connectRevoked;

    /** For JPA. */
    protected Endpoint() {}

    /**
     * @param ownerName the owning user's name
     * @param displayName the part after {@code #}
     * @param url GridFTP URL without credentials, e.g. {@code ftp://127.0.0.1:2811}
     * @param username login user
     */
    public Endpoint(String ownerName, String displayName, String url, String username) {
        this.id = UUID.randomUUID();
        this.ownerName = ownerName;
        this.displayName = displayName;
        this.canonicalName = ownerName + "#" + displayName;
        this.url = url;
        this.username = username;
        this.createdTime = Instant.now();
    }

    /** @return the endpoint id */
    public UUID getId() {
        return id;
    }

    /** @return the owning user's name */
    public String getOwnerName() {
        return ownerName;
    }

    /** @return {@code owner#name} */
    public String getCanonicalName() {
        return canonicalName;
    }

    /** @return the name part of the canonical name */
    public String getDisplayName() {
        return displayName;
    }

    /** @return the GridFTP URL (no credentials) */
    public String getUrl() {
        return url;
    }

    /** @return the login user name */
    public String getUsername() {
        return username;
    }

    /** @return the sealed login password, or null for none; never expose it outside the service */
    public String getSealedPassword() {
        return sealedPassword;
    }

    /** @param value the sealed password ({@link org.ferry.api.credential.EndpointSecrets}), or null */
    public void setSealedPassword(String value) {
        this.sealedPassword = value;
    }

    /** @return true for a {@code gsiftp://} endpoint, which users activate */
    public boolean isGsi() {
        return url.startsWith("gsiftp://");
    }

    /** @return true for an {@code sshftp://} endpoint (the control channel through the host's sshd) */
    public boolean isSsh() {
        return url.startsWith("sshftp://");
    }

    /**
     * @return true when each user must activate the endpoint with a credential of their own: a
     *     {@code gsiftp://} server endpoint, or an {@code sshftp://} endpoint made without a stored
     *     key (each user activates it with an SSH key of theirs); false for endpoints that log in
     *     with their stored login ({@code ftp://}, {@code sshftp://} with a key) and personal ones
     */
    public boolean needsActivation() {
        return (isGsi() && !isPersonal()) || (isSsh() && sealedPassword == null);
    }

    /** @return the MyProxy server ({@code host[:port]}) users activate against by default, or null */
    public String getMyProxyServer() {
        return myProxyServer;
    }

    /** @return the DN that MyProxy server presents, when not {@code host/<host>}, or null */
    public String getMyProxyDn() {
        return myProxyDn;
    }

    /** @return when it was registered */
    public Instant getCreatedTime() {
        return createdTime;
    }

    /** @return the description or null */
    public String getDescription() {
        return description;
    }

    /** @return whether every user may see and use it */
    public boolean isPublic() {
        return isPublic;
    }

    /** @return where listings start without a path, or null for {@code /} */
    public String getDefaultDirectory() {
        return defaultDirectory;
    }

    /**
     * Renames the endpoint: the canonical name becomes {@code owner#displayName}.
     *
     * @param newDisplayName the new name part
     */
    public void rename(String newDisplayName) {
        this.displayName = newDisplayName;
        this.canonicalName = ownerName + "#" + newDisplayName;
    }

    /**
     * Sets the descriptive fields.
     *
     * @param newDescription free text or null
     * @param newIsPublic whether every user may see and use it
     * @param newDefaultDirectory absolute path or null
     */
    public void describe(String newDescription, boolean newIsPublic, String newDefaultDirectory) {
        this.description = newDescription;
        this.isPublic = newIsPublic;
        this.defaultDirectory = newDefaultDirectory;
    }

    /**
     * @param server the default MyProxy server ({@code host[:port]}), or null
     * @param dn its DN when it is not {@code host/<host>}, or null
     */
    public void setMyProxy(String server, String dn) {
        this.myProxyServer = server;
        this.myProxyDn = dn;
    }

    /**
     * Replaces where and as whom Ferry logs in (used for the personal endpoint, whose password
     * changes on every server start: set it with {@link #setSealedPassword} after this).
     */
    public void updateLogin(String newUrl, String newUsername) {
        this.url = newUrl;
        this.username = newUsername;
    }

    /** @return the Ferry Connect agent's id of a personal endpoint, or null for a server endpoint */
    public String getConnectAgentId() {
        return connectAgentId;
    }

    /** @return true for a personal endpoint (Ferry Connect): its server is an agent behind the relay */
    public boolean isPersonal() {
        return connectAgentId != null;
    }

    /** @param agentId the Ferry Connect agent this personal endpoint is served by */
    public void setConnectAgentId(String agentId) {
        this.connectAgentId = agentId;
    }

    /** @return true once the owner revoked the personal endpoint's agent */
    public boolean isConnectRevoked() {
        return connectRevoked;
    }

    /** Marks the personal endpoint's agent revoked (it is cut off and refused from now on). */
    public void revokeConnect() {
        this.connectRevoked = true;
    }
}
