package org.ferry.api.credential;

import java.util.List;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.EndpointServer;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.repository.EndpointServerRepository;
import org.ferry.mover.client.GridFtpUrl;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * An endpoint's server rows as the endpoint registry and the session code read them, kept in step
 * with the endpoint's {@code url} (its first server's).
 */
@Component
public class EndpointServerRows {

    private final EndpointServerRepository servers;

    /** @param servers server rows */
    public EndpointServerRows(EndpointServerRepository servers) {
        this.servers = servers;
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
        GridFtpUrl url = GridFtpUrl.parse(endpoint.getUrl());
        return List.of(new EndpointServer(endpoint.getId(), 0, url.scheme(), url.host(), url.port(), null));
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
