package org.ferry.api.service;

import java.util.ArrayList;
import java.util.List;
import org.ferry.api.command.ServerDefinition;
import org.ferry.api.credential.EndpointServerRows;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.EndpointServer;
import org.ferry.api.error.ConflictException;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.error.NotFoundException;
import org.ferry.api.identity.Caller;
import org.ferry.api.repository.EndpointRepository;
import org.ferry.api.repository.EndpointServerRepository;
import org.ferry.mover.client.GridFtpUrl;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The GridFTP servers of logical endpoints (the historical Globus server list): an endpoint has
 * one or more, all {@code ftp://} or all {@code gsiftp://}; its {@code url} is always its first
 * server's. Only the owner adds, changes or removes servers; the last one cannot be removed. An
 * {@code sshftp://} endpoint has one server whose host key was pinned at creation: it takes no
 * other server, and its own cannot change.
 */
@Service
public class EndpointServers {

    private final EndpointServerRepository servers;
    private final EndpointServerRows rows;
    private final EndpointRepository endpoints;
    private final EndpointService endpointService;

    /**
     * @param servers server rows
     * @param rows an endpoint's rows in order
     * @param endpoints endpoint rows (the first server's URL is the endpoint's)
     * @param endpointService who may see and change which endpoint
     */
    public EndpointServers(
            EndpointServerRepository servers,
            EndpointServerRows rows,
            EndpointRepository endpoints,
            EndpointService endpointService) {
        this.servers = servers;
        this.rows = rows;
        this.endpoints = endpoints;
        this.endpointService = endpointService;
    }

    /**
     * @param endpoint an endpoint
     * @return its servers in the order they are tried
     */
    public List<EndpointServer> of(Endpoint endpoint) {
        return rows.of(endpoint);
    }

    /**
     * @param caller the user
     * @param idOrName an endpoint the caller may see
     * @return its servers
     */
    @Transactional(readOnly = true)
    public List<EndpointServer> list(Caller caller, String idOrName) {
        return of(endpointService.resolve(caller, idOrName, "endpoint_id"));
    }

    /**
     * @param caller the user
     * @param idOrName an endpoint the caller may see
     * @param serverId one of its servers
     * @return the server
     * @throws NotFoundException naming {@code server_id} if the endpoint has no such server
     */
    @Transactional(readOnly = true)
    public EndpointServer get(Caller caller, String idOrName, long serverId) {
        Endpoint endpoint = endpointService.resolve(caller, idOrName, "endpoint_id");
        return find(endpoint, serverId);
    }

    /**
     * Adds a server at the end of the list.
     *
     * @param caller the owner
     * @param idOrName the endpoint
     * @param request where the server is
     * @return the new server
     * @throws InvalidRequestException naming the field for a bad location or a scheme other than
     *     the endpoint's, or naming {@code uri} for an {@code sshftp://} endpoint
     * @throws ConflictException if the endpoint already has that server
     */
    @Transactional
    public EndpointServer add(Caller caller, String idOrName, ServerDefinition request) {
        Endpoint endpoint = endpointService.resolveOwned(caller, idOrName);
        refuseSsh(endpoint, "uri");
        ServerLocation location = ServerLocation.of(request, null, "");
        List<EndpointServer> existing = new ArrayList<>(of(endpoint));
        checkScheme(endpoint, location.scheme());
        if (existing.stream().anyMatch(s -> s.uri().equals(location.uri()))) {
            throw new ConflictException(
                    "uri", "Endpoint " + endpoint.getCanonicalName() + " has server " + location.uri());
        }
        if (existing.size() == 1 && existing.get(0).getId() == null) {
            servers.save(existing.get(0)); // the implicit first server becomes a row
        }
        int position =
                existing.stream().mapToInt(EndpointServer::getPosition).max().orElse(-1) + 1;
        return servers.save(new EndpointServer(
                endpoint.getId(),
                position,
                location.scheme(),
                location.hostname(),
                location.port(),
                location.subject()));
    }

    /**
     * Changes a server; the fields given replace the stored ones.
     *
     * @param caller the owner
     * @param idOrName the endpoint
     * @param serverId the server
     * @param request the new location and subject
     * @return the changed server
     * @throws InvalidRequestException naming the field for a bad location or a scheme other than
     *     the endpoint's; for an {@code sshftp://} endpoint, naming {@code uri} or {@code subject}
     *     (its pinned host key) for any change
     */
    @Transactional
    public EndpointServer update(Caller caller, String idOrName, long serverId, ServerDefinition request) {
        Endpoint endpoint = endpointService.resolveOwned(caller, idOrName);
        EndpointServer server = find(endpoint, serverId);
        if (server.getScheme().equals("sshftp")) {
            // sent back as it is, nothing changes; any other value is refused by name
            if (request.subject() != null && !request.subject().strip().equals(server.getSubject())) {
                refuseSsh(endpoint, "subject");
            }
            boolean moved = (request.uri() != null && !request.uri().strip().equals(server.uri()))
                    || (request.scheme() != null && !request.scheme().equals(server.getScheme()))
                    || (request.hostname() != null && !request.hostname().equals(server.getHostname()))
                    || (request.port() != null && request.port() != server.getPort());
            if (moved) {
                refuseSsh(endpoint, "uri");
            }
            return server;
        }
        ServerLocation location = ServerLocation.of(request, server, "");
        checkScheme(endpoint, location.scheme());
        server.change(location.scheme(), location.hostname(), location.port(), location.subject());
        servers.save(server);
        followFirst(endpoint);
        return server;
    }

    /**
     * Removes a server.
     *
     * @param caller the owner
     * @param idOrName the endpoint
     * @param serverId the server
     * @throws ConflictException if it is the endpoint's last server
     */
    @Transactional
    public void delete(Caller caller, String idOrName, long serverId) {
        Endpoint endpoint = endpointService.resolveOwned(caller, idOrName);
        EndpointServer server = find(endpoint, serverId);
        if (of(endpoint).size() <= 1) {
            throw new ConflictException(
                    "server_id",
                    "Server " + serverId + " is the last of " + endpoint.getCanonicalName() + ": an endpoint"
                            + " needs one (delete the endpoint instead)");
        }
        servers.delete(server);
        servers.flush();
        followFirst(endpoint);
    }

    /** The endpoint's url follows its first server. */
    private void followFirst(Endpoint endpoint) {
        EndpointServer first = of(endpoint).get(0);
        if (!first.uri().equals(endpoint.getUrl())) {
            endpoint.updateLogin(first.uri(), endpoint.getUsername());
            endpoints.save(endpoint);
        }
    }

    private EndpointServer find(Endpoint endpoint, long serverId) {
        return servers.findById(serverId)
                .filter(s -> s.getEndpointId().equals(endpoint.getId()))
                .orElseThrow(() -> new NotFoundException(
                        "server_id", "Endpoint " + endpoint.getCanonicalName() + " has no server " + serverId));
    }

    /** An sshftp:// endpoint's one server and its host key were pinned at creation. */
    private static void refuseSsh(Endpoint endpoint, String field) {
        if (endpoint.getUrl().startsWith("sshftp://")) {
            throw new InvalidRequestException(
                    field,
                    field + ": " + endpoint.getCanonicalName() + " is an sshftp:// endpoint: its one server and"
                            + " its host key were pinned at creation (make a new endpoint for another)");
        }
    }

    private static void checkScheme(Endpoint endpoint, String scheme) {
        String endpointScheme = GridFtpUrl.parse(endpoint.getUrl()).scheme();
        if (!endpointScheme.equals(scheme)) {
            throw new InvalidRequestException(
                    "scheme",
                    "Endpoint " + endpoint.getCanonicalName() + " has " + endpointScheme
                            + ":// servers: its servers are all ftp:// or all gsiftp://");
        }
    }
}
