package org.ferry.mover.data;

import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.net.InetAddress;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongConsumer;

/**
 * The data transfer process (DTP) side of GridFTP: opens data connections and moves bytes over
 * them in stream mode (RFC 959 section 3.4.1: one connection, end of data = close) or extended
 * block mode (GFD.020 "Extended Block Mode": 17-byte headers with offsets, N parallel connections,
 * EOD on every connection and one EOF carrying the connection count). Used by the server's
 * protocol interpreter and by the client alike; the PI never touches data sockets itself.
 *
 * <p>In MODE E the sender always connects and the receiver always listens (gridftp-protocol.md
 * section 2.2); {@link #send} with a {@link DataEndpoint.Passive} endpoint in MODE E, or
 * {@link #receive} with {@link DataEndpoint.Active}, fails with an {@link IOException}.
 */
public final class DataChannels implements AutoCloseable {

    private final EventLoopGroup group;

    /**
     * @param group event loops to run data connections on; not closed by {@link #close()}
     */
    public DataChannels(EventLoopGroup group) {
        this.group = group;
    }

    /**
     * Opens a listener on an ephemeral port.
     *
     * @param bindAddress local address to bind (and announce)
     * @return the listener
     * @throws IOException if binding fails
     */
    public PassiveListener listen(InetAddress bindAddress) throws IOException {
        throw new UnsupportedOperationException("TODO: implemented by the data channel work");
    }

    /**
     * Sends {@code source} to the peer.
     *
     * @param source bytes to send
     * @param endpoint where connections come from
     * @param extendedBlockMode true for MODE E, false for stream mode
     * @param parallelism number of connections in MODE E (1..64); ignored in stream mode
     * @param progress called with cumulative bytes sent (may be null)
     * @return completes with bytes sent once all data, EODs and EOF are written; completes
     *     exceptionally with an IOException on connect failure, reset, or file read error
     */
    public CompletableFuture<Long> send(DataSource source, DataEndpoint endpoint, boolean extendedBlockMode,
            int parallelism, LongConsumer progress) {
        throw new UnsupportedOperationException("TODO: implemented by the data channel work");
    }

    /**
     * Receives into {@code sink}.
     *
     * @param sink where bytes go, at their offsets
     * @param endpoint where connections come from
     * @param extendedBlockMode true for MODE E (complete when the EOF count of EODs arrived), false
     *     for stream mode (complete at close)
     * @param progress called with cumulative bytes received (may be null)
     * @return completes with bytes received; exceptionally with an IOException on a malformed MODE E
     *     header, a connection lost before EOD, or a sink write failure
     */
    public CompletableFuture<Long> receive(DataSink sink, DataEndpoint endpoint, boolean extendedBlockMode,
            LongConsumer progress) {
        throw new UnsupportedOperationException("TODO: implemented by the data channel work");
    }

    /** Releases resources owned by this object (not the event loop group). */
    @Override
    public void close() {
    }
}
