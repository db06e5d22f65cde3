package org.ferry.api.document;

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
 * @param isGlobusConnect false
 * @param nonFunctional false
 * @param servers the endpoint's GridFTP servers
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
        @JsonProperty("DATA") List<ServerDocument> servers) {}
