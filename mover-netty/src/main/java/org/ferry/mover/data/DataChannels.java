package org.ferry.mover.data;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.traffic.GlobalTrafficShapingHandler;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongConsumer;
import org.ferry.mover.data.security.DataChannelSecurity;

/**
 * The data transfer process (DTP) side of GridFTP: opens data connections and moves bytes over
 * them in stream mode (RFC 959 section 3.4.1: one connection, end of data = close) or extended
 * block mode (GFD.020 "Extended Block Mode": 17-byte headers with offsets, N parallel connections,
 * EOD on every connection and one EOF carrying the connection count). Used by the server's
 * protocol interpreter and by the client alike; the PI never touches data sockets itself.
 *
 * <p>In MODE E the sender always connects and the receiver always listens (GFD.020 "Extended Block Mode", data connection reuse); {@link #send} with a {@link DataEndpoint.Passive} endpoint in MODE E, or
 * {@link #receive} with {@link DataEndpoint.Active}, fails with an {@link IOException}.
 *
 * <p>Connections use the transport of {@code group} ({@link org.ferry.mover.net.Transport#of}:
 * native epoll or NIO). Stream mode connections are
 * closed at the end of every transfer; MODE E ones too, unless the caller passes a
 * {@link ModeECache}: then they end with EOD but no CLOSE, stay open, and the next transfer in the
 * same direction given the same cache reuses them (GFD.020; GFD.020 "Extended Block Mode", data connection reuse).
 *
 * <p>To abort a transfer (ABOR), cancel or complete its returned future: that closes its connections.
 *
 * <p>DCAU A/S and PROT (GFD.020 "DCAU", RFC 2228 section 3 (PROT)): transfers started on {@link #secured} put that
 * transfer's {@link DataChannelSecurity} handlers in front of each new connection; without it
 * (DCAU N) connections are plain TCP and nothing extra runs.
 */
public final class DataChannels implements AutoCloseable {

    /** Default MODE E block size, as globus-gridftp-server's {@code -blocksize} default. */
    public static final int DEFAULT_BLOCK_SIZE_BYTES = 256 * 1024;

    /**
     * Largest MODE E block sent as a file region (sendfile): such a block costs no memory, and its
     * header is a segment of its own ({@link ModeEDealer}).
     */
    public static final int MAX_REGION_BLOCK_BYTES = 4 << 20;

    /** Default for how long a transfer may move no bytes before it fails. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(5);

    private final EventLoopGroup group;
    private final int blockSizeBytes;
    private final Duration idleTimeout;
    private final int sendBufferBytes;
    private final int receiveBufferBytes;
    private final DataChannelSecurity security;
    private final GlobalTrafficShapingHandler shaper;
    private final DataConnections connections;
    /** Shared by every view of one data transfer process: where its listeners accept. */
    private final ListeningPorts listeningPorts;

    private final EventLoop home;
    /** Whether MODE E payloads for a receiver on this host are copied rather than sent by sendfile. */
    private final boolean copyForLocalPeers;

    /**
     * @param group event loops to run data connections on; not closed by {@link #close()}
     */
    public DataChannels(EventLoopGroup group) {
        this(group, DEFAULT_BLOCK_SIZE_BYTES, DEFAULT_IDLE_TIMEOUT);
    }

    /**
     * @param group event loops to run data connections on; not closed by {@link #close()}
     * @param blockSizeBytes MODE E block size for sends (1 byte .. 64 MiB)
     * @throws IllegalArgumentException if the block size is out of range
     */
    public DataChannels(EventLoopGroup group, int blockSizeBytes) {
        this(group, blockSizeBytes, DEFAULT_IDLE_TIMEOUT);
    }

    /**
     * @param group event loops to run data connections on; not closed by {@link #close()}
     * @param blockSizeBytes MODE E block size for sends (1 byte .. 64 MiB)
     * @param idleTimeout a transfer that moves no byte for this long (including waiting for the
     *     peer to connect) fails with a {@link java.net.SocketTimeoutException}
     * @throws IllegalArgumentException if the block size is out of range or the timeout not positive
     */
    public DataChannels(EventLoopGroup group, int blockSizeBytes, Duration idleTimeout) {
        if (blockSizeBytes < 1 || blockSizeBytes > (64 << 20)) {
            throw new IllegalArgumentException("block size must be 1..64 MiB, was " + blockSizeBytes);
        }
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("idle timeout must be positive");
        }
        this.group = group;
        this.blockSizeBytes = blockSizeBytes;
        this.idleTimeout = idleTimeout;
        this.sendBufferBytes = 0;
        this.receiveBufferBytes = 0;
        this.security = null;
        this.shaper = null;
        this.home = null;
        this.copyForLocalPeers = true;
        this.listeningPorts = new ListeningPorts();
        this.connections = new DataConnections(group, null, blockSizeBytes, 0, 0, null, null, listeningPorts);
    }

    /**
     * A view on the same event loops with other socket buffer sizes, data channel security or rate
     * limit.
     */
    private DataChannels(
            DataChannels base,
            int sendBufferBytes,
            int receiveBufferBytes,
            DataChannelSecurity security,
            GlobalTrafficShapingHandler shaper,
            EventLoop home,
            boolean copyForLocalPeers) {
        this.group = base.group;
        this.blockSizeBytes = base.blockSizeBytes;
        this.idleTimeout = base.idleTimeout;
        this.sendBufferBytes = sendBufferBytes;
        this.receiveBufferBytes = receiveBufferBytes;
        this.security = security;
        this.shaper = shaper;
        this.home = home;
        this.copyForLocalPeers = copyForLocalPeers;
        this.listeningPorts = base.listeningPorts;
        this.connections = new DataConnections(
                group, home, blockSizeBytes, sendBufferBytes, receiveBufferBytes, security, shaper, listeningPorts);
    }

    /**
     * The same data transfer process whose new connections all pass through one traffic shaper, so
     * that the data they send and receive together stay under the shaper's limits (a site's cap on
     * a server's bandwidth; tests use it to keep a transfer running long enough to interrupt).
     *
     * @param trafficShaper a shared shaper (Netty's, counting file regions too), or null for none
     * @return a view sharing the event loops and every other setting
     */
    public DataChannels rateLimited(GlobalTrafficShapingHandler trafficShaper) {
        return new DataChannels(
                this, sendBufferBytes, receiveBufferBytes, security, trafficShaper, home, copyForLocalPeers);
    }

    /**
     * The same data transfer process whose new connections (and listeners) get these TCP buffer
     * sizes (SBUF and the SITE buffer commands, GFD.020 "Buffer size negotiation",
     * GFD.020 "Buffer Size Negotiation"): SO_SNDBUF and SO_RCVBUF; 0 keeps the system default.
     * Connections already open (cached MODE E ones) keep theirs.
     *
     * @param sendBytes SO_SNDBUF in bytes, 0 for the default
     * @param receiveBytes SO_RCVBUF in bytes, 0 for the default
     * @return a view sharing the event loops; this object when both are 0
     * @throws IllegalArgumentException if a size is negative
     */
    public DataChannels withSocketBuffers(int sendBytes, int receiveBytes) {
        if (sendBytes < 0 || receiveBytes < 0) {
            throw new IllegalArgumentException("buffer sizes must be >= 0");
        }
        if (sendBytes == sendBufferBytes && receiveBytes == receiveBufferBytes) {
            return this;
        }
        return new DataChannels(this, sendBytes, receiveBytes, security, shaper, home, copyForLocalPeers);
    }

    /**
     * @param dataSecurity DCAU/PROT for the transfers started on the result, or null for DCAU N
     * @return data channels on the same event loops whose new connections are authenticated (and
     *     protected) as {@code dataSecurity} says; this object itself when it is null
     */
    public DataChannels secured(DataChannelSecurity dataSecurity) {
        return dataSecurity == null
                ? this
                : new DataChannels(
                        this, sendBufferBytes, receiveBufferBytes, dataSecurity, shaper, home, copyForLocalPeers);
    }

    /**
     * The same data transfer process whose new connections live on {@code loop} (the first
     * connection a transfer opens, and every connection a listener made here accepts), as do its
     * idle checks: a server session passes its control channel's event loop, so that a small file's
     * replies, data writes and completion run on one thread without hand-offs. Further connections
     * of a parallel send spread over the group, to use the other cores.
     *
     * @param loop an event loop of this object's group
     * @return a view sharing every other setting
     */
    public DataChannels homedOn(EventLoop loop) {
        return loop == home
                ? this
                : new DataChannels(
                        this, sendBufferBytes, receiveBufferBytes, security, shaper, loop, copyForLocalPeers);
    }

    /**
     * The same data transfer process whose MODE E sends use sendfile whatever the receiver, also
     * one on this host ({@link ModeESender} copies for those): for tests of the zero-copy path,
     * which loopback would otherwise never take.
     *
     * @return a view sharing every other setting
     */
    DataChannels zeroCopyForLocalPeers() {
        return new DataChannels(this, sendBufferBytes, receiveBufferBytes, security, shaper, home, false);
    }

    private DataTransfer newTransfer(LongConsumer progress, ModeECache cache, ModeECache.Direction direction) {
        return new DataTransfer(progress, cache, direction);
    }

    /**
     * Arms the transfer's idle timeout once it has started, unless it has already ended: a small
     * file on a cached connection is often sent whole before this, and then needs no timer.
     *
     * @return the transfer's result
     */
    private CompletableFuture<Long> started(DataTransfer transfer) {
        transfer.failWhenIdle(home != null ? home : group.next(), idleTimeout);
        return transfer.result();
    }

    /**
     * Opens a listener on an ephemeral port.
     *
     * @param bindAddress local address to bind (and announce)
     * @return the listener, already bound (its address is final); never blocks on the event loop
     * @throws IOException if binding fails
     */
    public PassiveListener listen(InetAddress bindAddress) throws IOException {
        return connections.listen(bindAddress);
    }

    /**
     * Whether a local TCP port is one on which this data transfer process (any of its views)
     * accepts data connections: a listener from {@link #listen} that is open, or a connection it
     * accepted that is (a cached MODE E connection keeps the port after its listener closed). A
     * server asks this of a PORT/EPRT address on its own host to tell a transfer between two of its
     * own sessions (a third-party transfer inside one server) from one to another process.
     *
     * @param port a TCP port, 0..65535
     * @return true while such a socket is open on {@code port}, on any local address
     */
    public boolean acceptsOn(int port) {
        return listeningPorts.contains(port);
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
     *     exceptionally with an IOException on connect failure, reset, file read error, or idle timeout
     */
    public CompletableFuture<Long> send(
            DataSource source,
            DataEndpoint endpoint,
            boolean extendedBlockMode,
            int parallelism,
            LongConsumer progress) {
        return send(source, endpoint, extendedBlockMode, parallelism, progress, null);
    }

    /**
     * Sends {@code source} to the peer, reusing and then keeping MODE E connections in {@code cache}.
     * Cached sending connections are used first (beyond {@code parallelism} they are closed with a
     * CLOSE header); missing ones are connected to the endpoint's address, which must be the one the
     * cached connections lead to (the caller clears the cache when the address changes).
     *
     * @param source bytes to send
     * @param endpoint where connections come from
     * @param extendedBlockMode true for MODE E, false for stream mode (never cached)
     * @param parallelism number of connections in MODE E (1..64); ignored in stream mode
     * @param progress called with cumulative bytes sent (may be null)
     * @param cache the session's MODE E connection cache, or null to close connections at the end
     * @return like {@link #send(DataSource, DataEndpoint, boolean, int, LongConsumer)}
     */
    public CompletableFuture<Long> send(
            DataSource source,
            DataEndpoint endpoint,
            boolean extendedBlockMode,
            int parallelism,
            LongConsumer progress,
            ModeECache cache) {
        DataTransfer transfer = newTransfer(progress, extendedBlockMode ? cache : null, ModeECache.Direction.SEND);
        // under PROT S/P TLS must see the bytes: buffers instead of zero-copy file regions
        SourceReader reader = new SourceReader(
                source, security != null && security.protection().tls(), copyForLocalPeers);
        if (!extendedBlockMode) {
            connections.open(endpoint, transfer, 1, () -> new StreamSender(reader, transfer));
            return started(transfer);
        }
        if (!(endpoint instanceof DataEndpoint.Active)) {
            transfer.fail(new IOException("MODE E: the sender must connect (PORT), not listen (PASV)"));
            return started(transfer);
        }
        if (parallelism < 1 || parallelism > 64) {
            transfer.fail(new IOException("parallelism must be 1..64, was " + parallelism));
            return started(transfer);
        }
        ModeEDealer dealer = new ModeEDealer(
                source.ranges(),
                blockSizeBytes,
                regionBlockBytes(source.length(), parallelism, blockSizeBytes),
                parallelism);
        List<Channel> cached = cache == null ? List.of() : cache.takeAll(ModeECache.Direction.SEND);
        int reused = 0;
        for (Channel channel : cached) {
            if (reused < parallelism) {
                ModeEReuse.forSending(channel, transfer, reader, dealer);
                reused++;
            } else {
                ModeECache.closeIdle(channel); // parallelism shrank
            }
        }
        if (reused < parallelism) {
            connections.open(
                    endpoint,
                    transfer,
                    parallelism - reused,
                    () -> new ModeESenderInitializer(new ModeESender(reader, dealer, transfer)));
        }
        return started(transfer);
    }

    /**
     * The size of the blocks a MODE E send of {@code length} bytes over {@code parallelism}
     * connections sends as file regions: large, to spare headers, but at least four per connection,
     * so that every connection carries a share; never below the block size.
     *
     * @param length bytes of the send
     * @param parallelism its connections
     * @param blockSizeBytes the block size of buffered blocks
     * @return the block size for file regions, in bytes
     */
    static int regionBlockBytes(long length, int parallelism, int blockSizeBytes) {
        long quarterShare = length / (4L * parallelism);
        return (int) Math.max(blockSizeBytes, Math.min(MAX_REGION_BLOCK_BYTES, quarterShare));
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
     *     header, a connection lost before EOD, a sink write failure, or idle timeout
     */
    public CompletableFuture<Long> receive(
            DataSink sink, DataEndpoint endpoint, boolean extendedBlockMode, LongConsumer progress) {
        return receive(sink, endpoint, extendedBlockMode, progress, null);
    }

    /**
     * Receives into {@code sink}, reusing and then keeping MODE E connections in {@code cache}:
     * cached receiving connections join the transfer first, then any new connection the peer opens
     * on the endpoint's listener (the one the cached connections came in on).
     *
     * @param sink where bytes go, at their offsets
     * @param endpoint where connections come from
     * @param extendedBlockMode true for MODE E, false for stream mode (never cached)
     * @param progress called with cumulative bytes received (may be null)
     * @param cache the session's MODE E connection cache, or null to close connections at the end
     * @return like {@link #receive(DataSink, DataEndpoint, boolean, LongConsumer)}
     */
    public CompletableFuture<Long> receive(
            DataSink sink, DataEndpoint endpoint, boolean extendedBlockMode, LongConsumer progress, ModeECache cache) {
        DataTransfer transfer = newTransfer(progress, extendedBlockMode ? cache : null, ModeECache.Direction.RECEIVE);
        if (!extendedBlockMode) {
            connections.open(endpoint, transfer, 1, () -> new StreamReceiver(sink, transfer));
            return started(transfer);
        }
        if (!(endpoint instanceof DataEndpoint.Passive passive)) {
            transfer.fail(new IOException("MODE E: the receiver must listen (PASV), not connect (PORT)"));
            return started(transfer);
        }
        ModeEEndTracker tracker = new ModeEEndTracker(transfer);
        if (cache != null) {
            for (Channel channel : cache.takeAll(ModeECache.Direction.RECEIVE)) {
                ModeEReuse.forReceiving(channel, transfer, sink, tracker);
            }
        }
        // Any number of connections may come (GFD.020), until the EOF count of EODs has arrived.
        connections.attach(
                (NettyPassiveListener) passive.listener(),
                transfer,
                Integer.MAX_VALUE,
                () -> new ModeEReceiverInitializer(sink, tracker, transfer));
        return started(transfer);
    }

    /** Releases resources owned by this object (not the event loop group). */
    @Override
    public void close() {}
}
