package org.ferry.mover.data;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.traffic.GlobalTrafficShapingHandler;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.ferry.mover.data.security.DataChannelSecurity;
import org.ferry.mover.net.ListenPorts;
import org.ferry.mover.net.Transport;

/**
 * Makes the data connections of one {@link DataChannels} view: binds listeners, connects, takes
 * accepted connections for a transfer, and sets each connection up the same way (TCP_NODELAY, socket
 * buffers, read sizes, write water marks, the rate limit next to the socket, DCAU/PROT handlers in
 * front). Thread-safe; holds no connection itself.
 */
final class DataConnections {

    private static final int CONNECT_TIMEOUT_MILLIS = 30_000;
    private static final int LISTEN_BACKLOG = 128;
    private static final int MIN_READ_BYTES = 4096;
    private static final int INITIAL_READ_BYTES = 64 * 1024;
    private static final int MAX_READ_BYTES = 1 << 20;
    /** Bounds of the receive window a rate-limited end keeps when no SBUF set one. */
    private static final int MIN_SHAPED_WINDOW_BYTES = 64 * 1024;

    private static final int MAX_SHAPED_WINDOW_BYTES = 4 << 20;

    private final EventLoopGroup group;
    private final EventLoop home;
    private final int blockSizeBytes;
    private final int sendBufferBytes;
    private final int receiveBufferBytes;
    private final DataChannelSecurity security;
    private final GlobalTrafficShapingHandler shaper;
    private final ListeningPorts listeningPorts;

    /**
     * @param group event loops (their transport decides the channels' classes)
     * @param home the loop for accepted connections and a transfer's first connection, or null for any of the group
     * @param blockSizeBytes MODE E block size, for the write water marks
     * @param sendBufferBytes SO_SNDBUF, 0 for the system default
     * @param receiveBufferBytes SO_RCVBUF, 0 for the system default
     * @param security DCAU/PROT handlers for new connections, or null for plain TCP
     * @param shaper the server's rate limit, or null
     * @param listeningPorts counts the ports of the listeners made here and of their connections
     */
    DataConnections(
            EventLoopGroup group,
            EventLoop home,
            int blockSizeBytes,
            int sendBufferBytes,
            int receiveBufferBytes,
            DataChannelSecurity security,
            GlobalTrafficShapingHandler shaper,
            ListeningPorts listeningPorts) {
        this.group = group;
        this.home = home;
        this.blockSizeBytes = blockSizeBytes;
        this.sendBufferBytes = sendBufferBytes;
        this.receiveBufferBytes =
                receiveBufferBytes > 0 || shaper == null ? receiveBufferBytes : shapedWindow(shaper.getReadLimit());
        this.security = security;
        this.shaper = shaper;
        this.listeningPorts = listeningPorts;
    }

    /**
     * Binds a listening socket: on random ports of {@link ListenPorts#system()} first (see there
     * why), then on one the kernel chooses.
     *
     * @throws IOException if the kernel's choice fails too
     */
    private ServerChannel bindListener(InetAddress bindAddress) throws IOException {
        try {
            return Transport.of(group)
                    .boundServerChannel(
                            bindAddress, ListenPorts.system().candidates(), LISTEN_BACKLOG, receiveBufferBytes);
        } catch (IOException e) {
            throw new IOException("cannot listen on " + bindAddress.getHostAddress() + ": " + e.getMessage(), e);
        }
    }

    /**
     * The receive buffer of a rate-limited connection: a tenth of a second at the limit, within
     * 64 KiB and 4 MiB. The shaper paces reads, but when the peer closes, the epoll transport reads
     * whatever the socket holds at once; Linux lets an unread receive buffer grow to
     * {@code tcp_rmem}'s maximum (32 MiB here), which would let a whole file in past the limit.
     *
     * @param readLimitBytesPerSecond the shaper's read limit, 0 for none
     * @return SO_RCVBUF in bytes, 0 for the system default when reads are not limited
     */
    static int shapedWindow(long readLimitBytesPerSecond) {
        if (readLimitBytesPerSecond <= 0) {
            return 0;
        }
        return (int) Math.max(MIN_SHAPED_WINDOW_BYTES, Math.min(MAX_SHAPED_WINDOW_BYTES, readLimitBytesPerSecond / 10));
    }

    /**
     * Opens a listener on an ephemeral port.
     *
     * @param bindAddress local address to bind (and announce)
     * @return the listener, already bound (its address is final); never blocks on the event loop
     * @throws IOException if binding fails
     */
    PassiveListener listen(InetAddress bindAddress) throws IOException {
        // Bind synchronously, then hand the bound socket to Netty: listen() never blocks on a
        // future, so a server PI may call it from its event loop (PASV).
        ServerChannel socket = bindListener(bindAddress);
        NettyPassiveListener listener = new NettyPassiveListener((InetSocketAddress) socket.localAddress());
        ChannelFuture registration = new ServerBootstrap()
                // the listener on the loop its connections go to: accepting them needs no hand-off
                // between threads (a wake-up per PASV of a small file)
                .group(home != null ? home : group, home != null ? home : group)
                .channelFactory(() -> socket)
                .childOption(ChannelOption.AUTO_READ, false) // nothing is read before a transfer attaches
                // the peer's close must not close the channel before a transfer saw its bytes: an
                // InboundHold turns the end of input into the close once the transfer is there
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.RCVBUF_ALLOCATOR, receiveAllocator())
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        applyBuffers(ch);
                        ch.pipeline().addFirst(InboundHold.NAME, new InboundHold());
                        // the rate limit from the start: epoll reads a connection whose peer
                        // closed before a transfer attached, and those bytes count too
                        shape(ch);
                        listeningPorts.hold(ch);
                        listener.accepted(ch);
                    }
                })
                .register();
        listeningPorts.hold(socket); // registered on its loop now, so its close can be heard
        listener.bound(registration.channel());
        return listener;
    }

    /** Opens {@code connections} connections (active) or takes them from the listener (passive). */
    void open(DataEndpoint endpoint, DataTransfer transfer, int connections, Supplier<ChannelHandler> handler) {
        if (endpoint instanceof DataEndpoint.Active active) {
            for (int i = 0; i < connections; i++) {
                connect(active.address(), transfer, handler.get(), i == 0 && home != null ? home : group);
            }
        } else if (endpoint instanceof DataEndpoint.Passive passive) {
            attach((NettyPassiveListener) passive.listener(), transfer, connections, handler);
        }
    }

    void connect(InetSocketAddress address, DataTransfer transfer, ChannelHandler handler, EventLoopGroup loops) {
        // Register the channel with the transfer before connecting: on loopback a small transfer can
        // connect, send and end before connect() returns, and a kept connection the transfer does
        // not know yet would be closed instead of cached.
        ChannelFuture registration = new Bootstrap()
                .group(loops)
                .channel(Transport.of(loops).socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MILLIS)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark())
                .option(ChannelOption.RCVBUF_ALLOCATOR, receiveAllocator())
                .handler(security == null ? handler : security.initiatorInitializer(handler))
                .register();
        Channel channel = registration.channel();
        applyBuffers(channel);
        shape(channel);
        transfer.register(channel);
        registration.addListener(r -> {
            if (!r.isSuccess()) {
                transfer.fail(new IOException(
                        "cannot open data connection to " + address + ": "
                                + r.cause().getMessage(),
                        r.cause()));
                return;
            }
            channel.connect(address).addListener(f -> {
                if (!f.isSuccess()) {
                    transfer.fail(new IOException(
                            "cannot open data connection to " + address + ": "
                                    + f.cause().getMessage(),
                            f.cause()));
                }
            });
        });
    }

    /** Takes up to {@code connections} connections from the listener; extra ones are closed. */
    void attach(
            NettyPassiveListener listener, DataTransfer transfer, int connections, Supplier<ChannelHandler> handler) {
        AtomicInteger taken = new AtomicInteger();
        Consumer<Channel> consumer = ch -> {
            if (taken.getAndIncrement() >= connections || transfer.isDone()) {
                ch.close();
                return;
            }
            transfer.register(ch);
            Runnable start = () -> {
                ch.config().setWriteBufferWaterMark(waterMark());
                shape(ch);
                if (security != null) {
                    security.install(ch.pipeline(), false);
                }
                ch.pipeline().addLast(handler.get());
                // what arrived while the connection waited (bytes, the peer's close, its death)
                InboundHold.release(ch);
                ch.config().setAutoRead(true);
            };
            // On the connection's own loop (the control channel's, where the connection was
            // accepted) start at once: a small file then goes out, and its 226 with the 150, within
            // the command's read instead of one event loop turn later.
            if (ch.eventLoop().inEventLoop()) {
                start.run();
            } else {
                ch.eventLoop().execute(start);
            }
        };
        transfer.result().whenComplete((bytes, error) -> listener.detach(consumer));
        listener.attach(consumer, transfer::isDone);
    }

    /**
     * @param channel a connected data connection
     * @return true if its peer runs on this host: a loopback address, or this end's own address
     */
    static boolean peerOnThisHost(Channel channel) {
        if (!(channel.remoteAddress() instanceof InetSocketAddress remote)
                || !(channel.localAddress() instanceof InetSocketAddress local)) {
            return false;
        }
        InetAddress peer = remote.getAddress();
        return peer != null && (peer.isLoopbackAddress() || peer.equals(local.getAddress()));
    }

    /** Puts the rate limit, if any, next to the socket: it counts what goes on the wire. */
    private void shape(Channel ch) {
        if (shaper != null && ch.pipeline().get(GlobalTrafficShapingHandler.class) == null) {
            ch.pipeline().addFirst(shaper);
        }
    }

    private WriteBufferWaterMark waterMark() {
        // Lets a couple of blocks queue per connection before writability turns off.
        return new WriteBufferWaterMark(blockSizeBytes, 2 * blockSizeBytes);
    }

    /**
     * Reads on data connections grow to {@link #MAX_READ_BYTES} when the socket keeps them full
     * (Netty's default stops at 64 KiB): fewer read calls, payload pieces and positional writes per
     * gigabyte; idle or slow connections shrink back.
     */
    private static AdaptiveRecvByteBufAllocator receiveAllocator() {
        return new AdaptiveRecvByteBufAllocator(MIN_READ_BYTES, INITIAL_READ_BYTES, MAX_READ_BYTES);
    }

    /** Applies the socket buffer sizes to a connection before it connects or reads. */
    private void applyBuffers(Channel ch) {
        if (sendBufferBytes > 0) {
            ch.config().setOption(ChannelOption.SO_SNDBUF, sendBufferBytes);
        }
        if (receiveBufferBytes > 0) {
            ch.config().setOption(ChannelOption.SO_RCVBUF, receiveBufferBytes);
        }
    }
}
