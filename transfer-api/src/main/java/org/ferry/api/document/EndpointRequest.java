package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * The body of {@code POST /endpoint} (create) and {@code PUT /endpoint/{id}} (update: fields
 * left out or null stay as they are). The read-only fields of {@link EndpointDocument} may be
 * sent back as they were read (a client that edits a fetched document); they change nothing.
 *
 * @param dataType {@code endpoint} or absent
 * @param canonicalName {@code owner#name}; on create this or {@code display_name} names it
 * @param displayName the name part (update: renames the endpoint)
 * @param description free text, at most 4096 characters
 * @param url {@code ftp://host[:port]}, {@code gsiftp://host[:port]} or {@code sshftp://host[:port]}, no
 *     credentials
 * @param username login user; default {@code anonymous}
 * @param password login password (write-only, stored sealed; {@code ftp://} only); default empty
 * @param isPublic whether every user may see and use it; default false
 * @param defaultDirectory absolute path where {@code ls} starts
 * @param myProxyServer for {@code gsiftp://}: the MyProxy server ({@code host[:port]}) users
 *     activate it against
 * @param myProxyDn that server's DN when it is not {@code host/<host name>}
 * @param sshPrivateKey for {@code sshftp://}: the SSH private key the service logs in with (OpenSSH
 *     or PEM text, unencrypted; write-only, stored sealed)
 * @param sshHostKey for {@code sshftp://}: the server's host key ({@code ssh-ed25519 AAAA...}) to
 *     pin; left out, the key the server shows at creation is pinned
 * @param id read-only
 * @param ownerString read-only
 * @param ownerId read-only
 * @param activated read-only
 * @param expiresIn read-only
 * @param expireTime read-only
 * @param activationSubject read-only
 * @param entityType read-only
 * @param isGlobusConnect read-only
 * @param nonFunctional read-only
 * @param servers read-only (the server list follows {@code url})
 * @param gcpConnected read-only, ignored (it changes by itself)
 * @param gcpConnectedSince read-only, ignored
 * @param gcpVersion read-only, ignored
 * @param gcpDirectories read-only, ignored
 * @param gcpRevoked read-only, ignored
 * @param setupKey read-only, ignored
 */
public record EndpointRequest(
        @JsonProperty("DATA_TYPE") String dataType,
        @JsonProperty("canonical_name") String canonicalName,
        @JsonProperty("display_name") String displayName,
        String description,
        String url,
        String username,
        String password,
        @JsonProperty("public") Boolean isPublic,
        @JsonProperty("default_directory") String defaultDirectory,
        @JsonProperty("myproxy_server") String myProxyServer,
        @JsonProperty("myproxy_dn") String myProxyDn,
        @JsonProperty("ssh_private_key") String sshPrivateKey,
        @JsonProperty("ssh_host_key") String sshHostKey,
        String id,
        @JsonProperty("owner_string") String ownerString,
        @JsonProperty("owner_id") String ownerId,
        Boolean activated,
        @JsonProperty("expires_in") Long expiresIn,
        @JsonProperty("expire_time") String expireTime,
        @JsonProperty("activation_subject") String activationSubject,
        @JsonProperty("entity_type") String entityType,
        @JsonProperty("is_globus_connect") Boolean isGlobusConnect,
        @JsonProperty("non_functional") Boolean nonFunctional,
        @JsonProperty("DATA") JsonNode servers,
        @JsonProperty("gcp_connected") Boolean gcpConnected,
        @JsonProperty("gcp_connected_since") String gcpConnectedSince,
        @JsonProperty("gcp_version") String gcpVersion,
        @JsonProperty("gcp_directories") List<String> gcpDirectories,
        @JsonProperty("gcp_revoked") Boolean gcpRevoked,
        @JsonProperty("globus_connect_setup_key") String setupKey) {}
