package org.ferry.mover.connect.relay;

import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.List;

/**
 * A connected agent, as its relay sees it: what an endpoint page shows.
 *
 * @param agentId the agent's id
 * @param since when its current connection was authenticated
 * @param version the version it announced ({@code "?"} before its hello)
 * @param directories its shared directories, {@code name|rw|path} or {@code name|ro|path}
 * @param controlAddress where movers reach its GridFTP control channel on the relay
 * @param remoteAddress where its connection comes from
 */
public record AgentPresence(
        String agentId,
        Instant since,
        String version,
        List<String> directories,
        InetSocketAddress controlAddress,
        String remoteAddress) {

    /** Copies the list. */
    public AgentPresence {
        directories = List.copyOf(directories);
    }
}
