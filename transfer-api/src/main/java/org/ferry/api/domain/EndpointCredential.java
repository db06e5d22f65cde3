package org.ferry.api.domain;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/**
 * The short-lived credential one user activated one endpoint with (Globus "activation"): a proxy
 * credential retrieved from MyProxy or delegated by the user's CLI, or an SSH key of the user's
 * for an {@code sshftp://} endpoint, stored sealed
 * ({@link org.ferry.api.credential.EndpointSecrets#credentialContext}) until it expires or the
 * user deactivates the endpoint. Never returned by the API; its subject and end are.
 */
@Entity
@Table(name = "endpoint_credential")
public class EndpointCredential {

    /** How the credential came. */
    public enum Method {
        /** Retrieved from a MyProxy server with a username and passphrase. */
        MYPROXY,
        /** A proxy the user's client signed for a key pair the service made. */
        DELEGATE_PROXY,
        /**
         * An SSH private key of the user's for an {@code sshftp://} endpoint (issue 37): the sealed
         * value is the unencrypted OpenSSH key text, the subject {@code <login> (<fingerprint>)}
         * ({@link #sshSubject}).
         */
        SSH_KEY
    }

    @Id
    private UUID id;

    @Column(name = "endpoint_id", nullable = false)
    private UUID endpointId;

    @Column(name = "owner_name", nullable = false)
    private String ownerName;

    @Column(nullable = false)
    private String method;

    @Column(nullable = false)
    private String subject;

    @Column(name = "not_after", nullable = false)
    private Instant notAfter;

    @Column(name = "myproxy_server")
    private String myProxyServer;

    @Column(name = "sealed_credential", nullable = false)
    private String sealedCredential;

    @Column(name = "created_time", nullable = false)
    private Instant createdTime;

    /** For JPA. */
    protected EndpointCredential() {}

    /**
     * A credential without its sealed value yet: seal it under {@link #getId()}, then
     * {@link #setSealedCredential}.
     *
     * @param endpointId the endpoint
     * @param ownerName the user who activated it
     * @param method how the credential came
     * @param subject its GSI identity (oneline DN)
     * @param notAfter when it stops working
     * @param myProxyServer the MyProxy server it came from ({@code host:port}), or null
     */
    public EndpointCredential(
            UUID endpointId, String ownerName, Method method, String subject, Instant notAfter, String myProxyServer) {
        this.id = UUID.randomUUID();
        this.endpointId = endpointId;
        this.ownerName = ownerName;
        this.method = method.name();
        this.subject = subject;
        this.notAfter = notAfter;
        this.myProxyServer = myProxyServer;
        this.createdTime = Instant.now();
    }

    /** @return the credential id (part of its sealing context) */
    public UUID getId() {
        return id;
    }

    /** @return the endpoint */
    public UUID getEndpointId() {
        return endpointId;
    }

    /** @return the user who activated the endpoint */
    public String getOwnerName() {
        return ownerName;
    }

    /** @return how the credential came */
    public Method getMethod() {
        return Method.valueOf(method);
    }

    /** @return the GSI identity (oneline DN); for {@link Method#SSH_KEY} {@code <login> (<fingerprint>)} */
    public String getSubject() {
        return subject;
    }

    /**
     * @param login an SSH login (no spaces)
     * @param fingerprint its key's fingerprint ({@code SHA256:...})
     * @return the subject of an {@link Method#SSH_KEY} activation: {@code <login> (<fingerprint>)}
     */
    public static String sshSubject(String login, String fingerprint) {
        return login + " (" + fingerprint + ")";
    }

    /** @return the SSH login of an {@link Method#SSH_KEY} activation (its subject's first word) */
    public String getSshLogin() {
        int end = subject.indexOf(" (");
        return end < 0 ? subject : subject.substring(0, end);
    }

    /** @return when the credential stops working */
    public Instant getNotAfter() {
        return notAfter;
    }

    /** @return the MyProxy server it came from ({@code host:port}), or null */
    public String getMyProxyServer() {
        return myProxyServer;
    }

    /** @return the sealed PEM credential */
    public String getSealedCredential() {
        return sealedCredential;
    }

    /** @param value the sealed PEM credential */
    public void setSealedCredential(String value) {
        this.sealedCredential = value;
    }

    /** @return when the endpoint was activated with it */
    public Instant getCreatedTime() {
        return createdTime;
    }
}
