package org.ferry.api.web;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.ferry.api.command.EndpointDefinition;
import org.ferry.api.command.ServerDefinition;
import org.ferry.api.document.EndpointDocument;
import org.ferry.api.document.EndpointRequest;
import org.ferry.api.document.ServerRequest;
import org.ferry.api.error.InvalidRequestException;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Maps the endpoint and server documents of the REST API to {@link EndpointDefinition} and
 * {@link ServerDefinition}, every field honoured or refused by name: on a create the server list
 * ({@code DATA}) makes the endpoint's servers and a read-only field is refused; on an update a
 * read-only field or the server list is accepted only as the endpoint has it (a fetched document
 * sent back whole changes nothing), and refused by name otherwise; a personal endpoint's create
 * refuses by name every field it does not take.
 */
@Component
public class EndpointRequests {

    /**
     * Read-only fields that show a personal endpoint's agent as it is now: they may change between
     * a {@code GET} and the {@code PUT} that sends its document back, so an update ignores them.
     */
    private static final Set<String> LIVE =
            Set.of("gcp_connected", "gcp_connected_since", "gcp_version", "gcp_directories");

    private final JsonMapper json;

    /** @param json reads the server documents of {@code DATA} */
    public EndpointRequests(JsonMapper json) {
        this.json = json;
    }

    /**
     * @param body a {@code POST /endpoint} body
     * @return the endpoint it registers
     * @throws InvalidRequestException naming the field: a read-only one, a malformed server
     */
    public EndpointDefinition create(EndpointRequest body) {
        checked(body);
        refuseReadOnly(body, null);
        return definition(body, servers(body.servers()));
    }

    /**
     * @param body a {@code POST /endpoint} body with {@code is_globus_connect: true}
     * @return the personal endpoint it registers: its name and description (its server is the
     *     agent's, on the relay)
     * @throws InvalidRequestException naming a field a personal endpoint does not take ({@code url},
     *     {@code DATA}, {@code password}, {@code username}, {@code myproxy_server},
     *     {@code myproxy_dn}, {@code ssh_private_key}, {@code ssh_host_key},
     *     {@code default_directory}, {@code public} true: it is private to its owner) or a read-only
     *     one
     */
    public EndpointDefinition personal(EndpointRequest body) {
        checked(body);
        refuseReadOnly(body, "is_globus_connect");
        Map<String, Object> notTaken = new LinkedHashMap<>();
        notTaken.put("url", body.url());
        notTaken.put("DATA", body.servers() == null || body.servers().isNull() ? null : body.servers());
        notTaken.put("password", body.password());
        notTaken.put("username", body.username());
        notTaken.put("myproxy_server", body.myProxyServer());
        notTaken.put("myproxy_dn", body.myProxyDn());
        notTaken.put("ssh_private_key", body.sshPrivateKey());
        notTaken.put("ssh_host_key", body.sshHostKey());
        notTaken.put("default_directory", body.defaultDirectory());
        notTaken.put("public", Boolean.TRUE.equals(body.isPublic()) ? true : null);
        for (Map.Entry<String, Object> field : notTaken.entrySet()) {
            if (field.getValue() != null) {
                throw new InvalidRequestException(
                        field.getKey(),
                        field.getKey() + ": a personal endpoint (is_globus_connect) takes a name and a description"
                                + " only: its agent dials out to this server, and only its owner's tasks reach it");
            }
        }
        return new EndpointDefinition(
                body.canonicalName(),
                body.displayName(),
                body.description(),
                null,
                null,
                null,
                false,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    /** Refuses every read-only field sent with a new endpoint but {@code allowed}. */
    private static void refuseReadOnly(EndpointRequest body, String allowed) {
        for (Map.Entry<String, Object> readOnly : readOnly(body).entrySet()) {
            if (readOnly.getValue() != null && !readOnly.getKey().equals(allowed)) {
                throw new InvalidRequestException(
                        readOnly.getKey(), readOnly.getKey() + " is read-only: leave it out of a new endpoint");
            }
        }
    }

    /**
     * @param body a {@code PUT /endpoint/{id}} body
     * @param current the endpoint's document as {@code GET} shows it to the caller now
     * @return the change it asks for
     * @throws InvalidRequestException naming a read-only field or {@code DATA} that differs from
     *     what the endpoint has
     */
    public EndpointDefinition update(EndpointRequest body, EndpointDocument current) {
        checked(body);
        Map<String, Object> now = readOnly(current);
        for (Map.Entry<String, Object> sent : readOnly(body).entrySet()) {
            String field = sent.getKey();
            if (sent.getValue() == null || field.equals("expires_in") || LIVE.contains(field)) {
                continue;
            }
            if (!Objects.equals(String.valueOf(sent.getValue()), String.valueOf(now.get(field)))) {
                throw new InvalidRequestException(
                        field, field + " is read-only: it is " + now.get(field) + " and cannot change");
            }
        }
        // expires_in counts down to expire_time: with an activation it is checked through
        // expire_time, which must come with it; without one it is the constant the document shows
        if (body.expiresIn() != null) {
            boolean asRead = current.expireTime() == null
                    ? body.expiresIn() == current.expiresIn()
                    : current.expireTime().equals(body.expireTime());
            if (!asRead) {
                throw new InvalidRequestException(
                        "expires_in", "expires_in is read-only: send it only with the expire_time it counts down to");
            }
        }
        if (body.servers() != null && !body.servers().isNull()) {
            // both read back from their text, so that numbers compare alike whatever made them
            JsonNode sent = json.readTree(json.writeValueAsString(body.servers()));
            JsonNode has = json.readTree(json.writeValueAsString(current.servers()));
            if (!sent.equals(has)) {
                throw new InvalidRequestException(
                        "DATA",
                        "DATA: an endpoint's servers change through /endpoint/{id}/server (add, update, delete),"
                                + " not through an endpoint update");
            }
        }
        return definition(body, null);
    }

    /**
     * @param body a server document ({@code POST} or {@code PUT /endpoint/{id}/server[/{server_id}]})
     * @param serverId the server it changes, or null for a new one
     * @return where the server is
     * @throws InvalidRequestException naming {@code DATA_TYPE}, or {@code id} when it names another
     *     server (or any, on an add)
     */
    public static ServerDefinition server(ServerRequest body, Long serverId) {
        return server(body, serverId, "");
    }

    private static ServerDefinition server(ServerRequest body, Long serverId, String prefix) {
        if (body == null) {
            throw new InvalidRequestException(
                    prefix.isEmpty() ? null : prefix, "Request body must be a server document");
        }
        if (body.dataType() != null && !"server".equals(body.dataType())) {
            throw new InvalidRequestException(prefix + "DATA_TYPE", prefix + "DATA_TYPE must be 'server'");
        }
        if (body.id() != null && !body.id().equals(serverId)) {
            throw new InvalidRequestException(
                    prefix + "id",
                    prefix + "id is read-only"
                            + (serverId == null ? ": leave it out of a new server" : ": it is " + serverId));
        }
        return new ServerDefinition(body.uri(), body.scheme(), body.hostname(), body.port(), body.subject());
    }

    private List<ServerDefinition> servers(JsonNode data) {
        if (data == null || data.isNull()) {
            return null;
        }
        if (!data.isArray()) {
            throw new InvalidRequestException("DATA", "DATA must be a list of server documents");
        }
        List<ServerDefinition> servers = new ArrayList<>();
        for (int i = 0; i < data.size(); i++) {
            String prefix = "DATA[" + i + "].";
            ServerRequest server;
            try {
                server = json.treeToValue(data.get(i), ServerRequest.class);
            } catch (JacksonException e) {
                throw new InvalidRequestException(
                        "DATA[" + i + "]", "DATA[" + i + "] must be a server document: " + e.getOriginalMessage());
            }
            servers.add(server(server, null, prefix));
        }
        return servers;
    }

    private static void checked(EndpointRequest body) {
        if (body == null) {
            throw new InvalidRequestException(null, "Request body must be an endpoint document");
        }
        if (body.dataType() != null && !"endpoint".equals(body.dataType())) {
            throw new InvalidRequestException("DATA_TYPE", "DATA_TYPE must be 'endpoint'");
        }
    }

    private static EndpointDefinition definition(EndpointRequest body, List<ServerDefinition> servers) {
        return new EndpointDefinition(
                body.canonicalName(),
                body.displayName(),
                body.description(),
                body.url(),
                body.username(),
                body.password(),
                body.isPublic(),
                body.defaultDirectory(),
                body.myProxyServer(),
                body.myProxyDn(),
                body.sshPrivateKey(),
                body.sshHostKey(),
                servers);
    }

    /** @return the read-only fields of a request, by their names in the document */
    private static Map<String, Object> readOnly(EndpointRequest body) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("id", body.id());
        fields.put("owner_string", body.ownerString());
        fields.put("owner_id", body.ownerId());
        fields.put("activated", body.activated());
        fields.put("expires_in", body.expiresIn());
        fields.put("expire_time", body.expireTime());
        fields.put("activation_subject", body.activationSubject());
        fields.put("entity_type", body.entityType());
        fields.put("is_globus_connect", body.isGlobusConnect());
        fields.put("non_functional", body.nonFunctional());
        fields.put("gcp_connected", body.gcpConnected());
        fields.put("gcp_connected_since", body.gcpConnectedSince());
        fields.put("gcp_version", body.gcpVersion());
        fields.put("gcp_directories", body.gcpDirectories());
        fields.put("gcp_revoked", body.gcpRevoked());
        fields.put("globus_connect_setup_key", body.setupKey());
        return fields;
    }

    /** @return the same fields as the endpoint's document has them */
    private static Map<String, Object> readOnly(EndpointDocument current) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("id", current.id());
        fields.put("owner_string", current.ownerString());
        fields.put("owner_id", current.ownerId());
        fields.put("activated", current.activated());
        fields.put("expires_in", current.expiresIn());
        fields.put("expire_time", current.expireTime());
        fields.put("activation_subject", current.activationSubject());
        fields.put("entity_type", current.entityType());
        fields.put("is_globus_connect", current.isGlobusConnect());
        fields.put("non_functional", current.nonFunctional());
        fields.put("gcp_connected", current.gcpConnected());
        fields.put("gcp_connected_since", current.gcpConnectedSince());
        fields.put("gcp_version", current.gcpVersion());
        fields.put("gcp_directories", current.gcpDirectories());
        fields.put("gcp_revoked", current.gcpRevoked());
        fields.put("globus_connect_setup_key", current.setupKey());
        return fields;
    }
}
