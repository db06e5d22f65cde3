package org.ferry.api.domain;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/**
 * The key pair the service made for one user's delegate-proxy activation of one endpoint: the
 * public key is offered in the activation requirements (PEM), the user's client signs a proxy
 * certificate for it with the user's own credential, and the private key (sealed) never leaves
 * the service. Replaced when it grows old; removed once used.
 */
@Entity
@Table(name = "delegation_request")
public class PendingDelegation {

    @Id
    private UUID id;

    @Column(name = "endpoint_id", nullable = false)
    private UUID endpointId;

    @Column(name = "owner_name", nullable = false)
    private String ownerName;

    @Column(name = "public_key", nullable = false)
    private String publicKey;

    @Column(name = "sealed_private_key", nullable = false)
    private String sealedPrivateKey;

    @Column(name = "created_time", nullable = false)
    private Instant createdTime;

    /** For JPA. */
    protected PendingDelegation() {}

    /**
     * @param endpointId the endpoint
     * @param ownerName the user
     * @param publicKey the public key, PEM ({@code BEGIN PUBLIC KEY})
     */
    public PendingDelegation(UUID endpointId, String ownerName, String publicKey) {
        this.id = UUID.randomUUID();
        this.endpointId = endpointId;
        this.ownerName = ownerName;
        this.publicKey = publicKey;
        this.createdTime = Instant.now();
    }

    /** @return the id (part of the private key's sealing context) */
    public UUID getId() {
        return id;
    }

    /** @return the endpoint */
    public UUID getEndpointId() {
        return endpointId;
    }

    /** @return the user */
    public String getOwnerName() {
        return ownerName;
    }

    /** @return the public key, PEM */
    public String getPublicKey() {
        return publicKey;
    }

    /** @return the sealed private key (PKCS#8 PEM) */
    public String getSealedPrivateKey() {
        return sealedPrivateKey;
    }

    /** @param value the sealed private key */
    public void setSealedPrivateKey(String value) {
        this.sealedPrivateKey = value;
    }

    /** @return when the key pair was made */
    public Instant getCreatedTime() {
        return createdTime;
    }
}
