package org.ferry.mover.server.dtp;

import java.util.Objects;
import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.data.DataSource;

/**
 * A plain (not striped) send, the one-stripe case that only the DTP in the server's own process
 * runs: RETR, ERET and the listings (RFC 959 section 4.1.3; GFD.020 "Extended Retrieve"). In
 * stream mode one connection, closed at the end (RFC 959 section 3.4.1); in MODE E
 * {@code parallelism} connections to a PORT/EPRT address, the session's kept connections first
 * (GFD.020 "Extended Block Mode").
 *
 * @param source what to send: a file range, restart ranges of a file, bytes in memory; not closed
 * @param endpoint where the connections come from: a PORT/EPRT address, or in stream mode a
 *     PASV/EPSV listener of this DTP
 * @param extendedBlockMode true for MODE E, false for stream mode
 * @param parallelism MODE E connections, 1..64; ignored in stream mode
 * @param channels the session's buffers, security and kept connections
 */
public record PlainSend(
        DataSource source, DataEndpoint endpoint, boolean extendedBlockMode, int parallelism, SessionChannels channels)
        implements SendRequest {

    /** @throws NullPointerException if an argument is null */
    public PlainSend {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(channels, "channels");
    }
}
