package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * An endpoint as the API shows it (Globus endpoint document fields Ferry has, plus {@code url}
 * and {@code username}; the stored password is never shown).
 *
 * @param dataType {@code endpoint}
 * @param id the endpoint's id
 * @param canonicalName {@code owner#name}
 * @param displayName the name part
 * @param ownerString the owner's user name
 * @param ownerId the owner's account id
 * @param description free text or null
 * @param url the GridFTP server, {@code ftp://host:port} or {@code gsiftp://host:port}
 * @param username the login Ferry uses
 * @param isPublic whether every user of this server may see and use it
 * @param defaultDirectory where {@code ls} without a path starts, or null for {@code /}
 * @param activated the caller's activation: true when the caller has a valid credential for a
 *     {@code gsiftp://} endpoint, always true for a clear-text one (it needs none)
 * @param expiresIn seconds the caller's activation lasts; -1: never expires (no activation
 *     needed); 0: not activated
 * @param expireTime when it ends, or null
 * @param activationSubject the identity (oneline DN) of the caller's credential, or null
 * @param myProxyServer the MyProxy server ({@code host[:port]}) users activate against, or null
 * @param myProxyDn that server's DN when not {@code host/<host name>}, or null
 * @param entityType {@code GCSv4_endpoint}: a GridFTP endpoint
 * @param isGlobusConnect true for a personal endpoint (Ferry Connect: an agent behind the relay)
 * @param nonFunctional false
 * @param servers the endpoint's GridFTP servers
 * @param gcpConnected for a personal endpoint: whether its agent is connected now; else absent
 * @param gcpConnectedSince when its agent's current connection began, or absent
 * @param gcpVersion the connected agent's version, or absent
 * @param gcpDirectories the connected agent's shared directories, {@code NAME|rw|PATH} or
 *     {@code NAME|ro|PATH}, or absent
 * @param gcpRevoked for a personal endpoint: whether its owner revoked the agent; else absent
 * @param setupKey only in the answer to its creation: the agent's one-time setup key
 */
public record EndpointDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        String id,
        @JsonProperty("canonical_name") String canonicalName,
        @JsonProperty("display_name") String displayName,
        @JsonProperty("owner_string") String ownerString,
        @JsonProperty("owner_id") String ownerId,
        String description,
        String url,
        String username,
        @JsonProperty("public") boolean isPublic,
        @JsonProperty("default_directory") String defaultDirectory,
        boolean activated,
        @JsonProperty("expires_in") long expiresIn,
        @JsonProperty("expire_time") String expireTime,
        @JsonProperty("activation_subject") String activationSubject,
        @JsonProperty("myproxy_server") String myProxyServer,
        @JsonProperty("myproxy_dn") String myProxyDn,
        @JsonProperty("entity_type") String entityType,
        @JsonProperty("is_globus_connect") boolean isGlobusConnect,
        @JsonProperty("non_functional") boolean nonFunctional,
        @JsonProperty("DATA") List<ServerDocument> servers,

        @JsonProperty("gcp_connected") @JsonInclude(JsonInclude.Include.NON_NULL)
        Boolean gcpConnected,

        @JsonProperty("gcp_connected_since") @JsonInclude(JsonInclude.Include.NON_NULL)
        String gcpConnectedSince,

        @JsonProperty("gcp_version") @JsonInclude(JsonInclude.Include.NON_NULL)
        String gcpVersion,

        @JsonProperty("gcp_directories") @JsonInclude(JsonInclude.Include.NON_NULL)
        List<String> gcpDirectories,

        @JsonProperty("gcp_revoked") @JsonInclude(JsonInclude.Include.NON_NULL)
        Boolean gcpRevoked,

        @JsonProperty("globus_connect_setup_key") @JsonInclude(JsonInclude.Include.NON_NULL)
        String setupKey) {

    /**
     * @param key the setup key to show once
     * @return this document with it
     */
    public EndpointDocument withSetupKey(String key) {
        return new EndpointDocument(
                dataType,
                id,
                canonicalName,
                displayName,
                ownerString,
                ownerId,
                description,
                url,
                username,
                isPublic,
                defaultDirectory,
                activated,
                expiresIn,
                expireTime,
                activationSubject,
                myProxyServer,
                myProxyDn,
                entityType,
                isGlobusConnect,
                nonFunctional,
                servers,
                gcpConnected,
                gcpConnectedSince,
                gcpVersion,
                gcpDirectories,
                gcpRevoked,
                key);
    }
}
