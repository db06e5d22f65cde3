package org.ferry.api.domain;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.UUID;

/**
 * One GridFTP server of a logical endpoint (the historical Globus server document): where it is,
 * and the certificate subject it must present when that is not {@code host/<hostname>}. An
 * endpoint's servers are all {@code ftp://} or all {@code gsiftp://}, serve the same storage, and
 * are tried in {@code position} order from a random start, failing over on transient faults.
 */
@Entity
@Table(name = "endpoint_server")
public class EndpointServer {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "endpoint_id", nullable = false)
    private UUID endpointId;

    @Column(nullable = false)
    private int position;

    @Column(nullable = false)
    private String scheme;

    @Column(nullable = false)
    private String hostname;

    @Column(nullable = false)
    private int port;

    private String subject;

    /** For JPA. */
    protected EndpointServer() {}

    /**
     * @param endpointId the endpoint
     * @param position its place in the list (0 first)
     * @param scheme {@code ftp} or {@code gsiftp}
     * @param hostname host name or address
     * @param port control port
     * @param subject the DN it must present, or null for {@code host/<hostname>}
     */
    public EndpointServer(UUID endpointId, int position, String scheme, String hostname, int port, String subject) {
        this.endpointId = endpointId;
        this.position = position;
        this.scheme = scheme;
        this.hostname = hostname;
        this.port = port;
        this.subject = subject;
    }

    /** @return the server's id (unique over all endpoints) */
    public Long getId() {
        return id;
    }

    /** @return the endpoint */
    public UUID getEndpointId() {
        return endpointId;
    }

    /** @return its place in the list, 0 first */
    public int getPosition() {
        return position;
    }

    /** @param value a new place in the list */
    public void setPosition(int value) {
        this.position = value;
    }

    /** @return {@code ftp} or {@code gsiftp} */
    public String getScheme() {
        return scheme;
    }

    /** @return host name or address */
    public String getHostname() {
        return hostname;
    }

    /** @return control port */
    public int getPort() {
        return port;
    }

    /** @return the DN it must present, or null */
    public String getSubject() {
        return subject;
    }

    /** @return {@code scheme://hostname:port} */
    public String uri() {
        return uri(scheme, hostname, port);
    }

    /**
     * @param scheme {@code ftp} or {@code gsiftp}
     * @param hostname host
     * @param port port
     * @return {@code scheme://hostname:port}, as {@link #uri()} gives it for a row of these values
     */
    public static String uri(String scheme, String hostname, int port) {
        return scheme + "://" + hostname + ":" + port;
    }

    /**
     * @param newScheme {@code ftp} or {@code gsiftp}
     * @param newHostname host
     * @param newPort port
     * @param newSubject DN or null
     */
    public void change(String newScheme, String newHostname, int newPort, String newSubject) {
        this.scheme = newScheme;
        this.hostname = newHostname;
        this.port = newPort;
        this.subject = newSubject;
    }
}
