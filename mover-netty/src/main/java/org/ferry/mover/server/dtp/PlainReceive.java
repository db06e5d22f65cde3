package org.ferry.mover.server.dtp;

import java.util.Objects;
import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.data.DataSink;

/**
 * A plain (not striped) receive, the one-stripe case that only the DTP in the server's own process
 * runs: STOR, APPE, ESTO (RFC 959 section 4.1.3; GFD.020 "Extended Store"). In stream mode one
 * connection until it closes; in MODE E any number of connections to a PASV/EPSV listener until the
 * EOF's count of EODs arrived (GFD.020 "Extended Block Mode"), the session's kept connections first.
 *
 * @param sink where the bytes go, at their offsets (a file, memory for a tar batch); not closed
 * @param endpoint where the connections come from: a PASV/EPSV listener of this DTP, or in stream
 *     mode a PORT/EPRT address
 * @param extendedBlockMode true for MODE E, false for stream mode
 * @param channels the session's buffers, security and kept connections
 */
public record PlainReceive(DataSink sink, DataEndpoint endpoint, boolean extendedBlockMode, SessionChannels channels)
        implements ReceiveRequest {

    /** @throws NullPointerException if an argument is null */
    public PlainReceive {
        Objects.requireNonNull(sink, "sink");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(channels, "channels");
    }
}
