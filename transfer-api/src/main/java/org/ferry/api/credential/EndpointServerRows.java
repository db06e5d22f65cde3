package org.ferry.api.credential;

import java.util.List;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.EndpointServer;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.repository.EndpointServerRepository;
import org.ferry.mover.access.EndpointAccess;
import org.ferry.mover.client.GridFtpUrl;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * An endpoint's server rows as the endpoint registry and the session code read them, kept in step
 * with the endpoint's {@code url} (its first server's).
 */
@Component
public class EndpointServerRows {

    private final EndpointServerRepository servers;
    private final JdbcTemplate jdbc;

    /**
     * @param servers server rows
     * @param jdbc the same rows in plain SQL, for the session code's reads
     */
    public EndpointServerRows(EndpointServerRepository servers, JdbcTemplate jdbc) {
        this.servers = servers;
        this.jdbc = jdbc;
    }

    /**
     * The servers as sessions need them, in one plain SQL read: a planning and every chunk look
     * both endpoints' servers up, and the JPA query (entities in a persistence context) was a
     * tenth of the engine's and the planners' CPU with many small tasks (docs/benchmarks.md, "Many
     * tasks at once"). Rows written earlier in the caller's transaction through JPA must have been
     * flushed (every writer here saves them in a transaction of its own).
     *
     * @param endpoint an endpoint
     * @return its servers' URLs and subjects in the order {@link #of} gives them
     */
    @Transactional(readOnly = true)
    public List<EndpointAccess.Server> accessServers(Endpoint endpoint) {
        List<EndpointAccess.Server> rows = jdbc.query(
                "select scheme, hostname, port, subject from endpoint_server where endpoint_id = ?"
                        + " order by position, id",
                (rs, n) -> new EndpointAccess.Server(
                        EndpointServer.uri(rs.getString(1), rs.getString(2), rs.getInt(3)), rs.getString(4)),
                endpoint.getId());
        if (!rows.isEmpty()) {
            return rows;
        }
        EndpointServer fromUrl = fromUrl(endpoint);
        return List.of(new EndpointAccess.Server(fromUrl.uri(), fromUrl.getSubject()));
    }

    /** @return the one server an endpoint without server rows has: its {@code url}'s, unsaved */
    private static EndpointServer fromUrl(Endpoint endpoint) {
        GridFtpUrl url = GridFtpUrl.parse(endpoint.getUrl());
        return new EndpointServer(endpoint.getId(), 0, url.scheme(), url.host(), url.port(), null);
    }

    /**
     * @param endpoint an endpoint
     * @return its servers in the order they are tried; its {@code url} alone if it has no row
     */
    @Transactional(readOnly = true)
    public List<EndpointServer> of(Endpoint endpoint) {
        List<EndpointServer> rows = servers.findByEndpointIdOrderByPositionAscIdAsc(endpoint.getId());
        if (!rows.isEmpty()) {
            return rows;
        }
        return List.of(fromUrl(endpoint));
    }

    /**
     * Makes the first server row say what the endpoint's {@code url} says (after a create, a
     * change of {@code url}, a register).
     *
     * @param endpoint a stored endpoint
     */
    @Transactional
    public void followUrl(Endpoint endpoint) {
        GridFtpUrl url = GridFtpUrl.parse(endpoint.getUrl());
        List<EndpointServer> rows = servers.findByEndpointIdOrderByPositionAscIdAsc(endpoint.getId());
        if (rows.isEmpty()) {
            servers.save(new EndpointServer(endpoint.getId(), 0, url.scheme(), url.host(), url.port(), null));
            return;
        }
        EndpointServer first = rows.get(0);
        if (!first.uri().equals(endpoint.getUrl())) {
            first.change(url.scheme(), url.host(), url.port(), first.getSubject());
            servers.save(first);
        }
        for (EndpointServer other : rows.subList(1, rows.size())) {
            if (!other.getScheme().equals(url.scheme())) {
                throw new InvalidRequestException(
                        "url",
                        "url must keep the scheme of the endpoint's other servers (" + other.uri()
                                + "): an endpoint's servers are all ftp:// or all gsiftp://");
            }
        }
    }

    /**
     * Stores the server rows of a new endpoint, in the order they are tried (the first is the
     * endpoint's {@code url}).
     *
     * @param endpoint a stored endpoint without server rows
     * @param rows its servers
     */
    @Transactional
    public void create(Endpoint endpoint, List<EndpointServer> rows) {
        if (!servers.findByEndpointIdOrderByPositionAscIdAsc(endpoint.getId()).isEmpty()) {
            throw new IllegalStateException("endpoint " + endpoint.getCanonicalName() + " has server rows");
        }
        servers.saveAll(rows);
    }
}
