package org.ferry.api.domain;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/**
 * One trust directory file (a CA certificate, signing policy, namespaces file or CRL) a user
 * bootstrapped from a MyProxy server, as {@code myproxy-logon -b} writes it to
 * {@code ~/.globus/certificates}: it adds to the site's trust for that user's sessions only.
 */
@Entity
@Table(name = "trust_root")
public class UserTrustRoot {

    @Id
    private UUID id;

    @Column(name = "owner_name", nullable = false)
    private String ownerName;

    @Column(name = "file_name", nullable = false)
    private String fileName;

    @Column(nullable = false)
    private String content;

    @Column(nullable = false)
    private String source;

    @Column(name = "created_time", nullable = false)
    private Instant createdTime;

    /** For JPA. */
    protected UserTrustRoot() {}

    /**
     * @param ownerName the user
     * @param fileName a trust directory file name ({@code <hash>.0}, ...)
     * @param content the file's text (PEM or policy)
     * @param source where it came from, e.g. {@code myproxy://host:7512}
     */
    public UserTrustRoot(String ownerName, String fileName, String content, String source) {
        this.id = UUID.randomUUID();
        this.ownerName = ownerName;
        this.fileName = fileName;
        this.content = content;
        this.source = source;
        this.createdTime = Instant.now();
    }

    /** @return the user */
    public String getOwnerName() {
        return ownerName;
    }

    /** @return the file name */
    public String getFileName() {
        return fileName;
    }

    /** @return the file's text */
    public String getContent() {
        return content;
    }

    /** @param value new content (a later bootstrap from the same server) */
    public void setContent(String value) {
        this.content = value;
    }

    /** @return where it came from */
    public String getSource() {
        return source;
    }
}
