package org.ferry.mover.net;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SelectStrategyFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.unix.Socket;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.spi.SelectorProvider;
import java.util.concurrent.ThreadFactory;

/**
 * How the mover's sockets are driven: Netty's native epoll transport where it loads (Linux on
 * x86-64 and aarch64: edge-triggered epoll, {@code writev} and {@code sendfile} straight from
 * native code, no selector or selected-key bookkeeping per wake-up), else the JDK's NIO. An event
 * loop group only drives channels of its own transport, so a channel's class is always taken from
 * the group it registers with ({@link #of}). {@code -Dferry.transport=nio} forces NIO.
 */
public enum Transport {
    /** Netty's native epoll transport (Linux). */
    EPOLL,
    /** The JDK's NIO selector transport (everywhere). */
    NIO;

    /** System property that forces a transport: {@code nio} or {@code epoll}. */
    public static final String PROPERTY = "ferry.transport";

    /**
     * @return EPOLL where the native transport loads and {@value #PROPERTY} does not say {@code
     *     nio}, else NIO
     */
    public static Transport preferred() {
        String forced = System.getProperty(PROPERTY, "");
        if (forced.equalsIgnoreCase("nio")) {
            return NIO;
        }
        return Epoll.isAvailable() ? EPOLL : NIO;
    }

    /**
     * @param group an event loop group made by {@link #newGroup} or by hand
     * @return the transport whose channels the group drives
     */
    public static Transport of(EventLoopGroup group) {
        return group instanceof IoEventLoopGroup io && io.isIoType(EpollIoHandler.class) ? EPOLL : NIO;
    }

    /** @return the I/O handler factory of this transport's event loops */
    public IoHandlerFactory ioHandlerFactory() {
        return this == EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    }

    /** The I/O handler factory of this transport's event loops with {@code strategies} deciding their turns. */
    private IoHandlerFactory ioHandlerFactory(SelectStrategyFactory strategies) {
        // 0 events: epoll's array starts small and grows, as in the factory without arguments
        return this == EPOLL
                ? EpollIoHandler.newFactory(0, strategies)
                : NioIoHandler.newFactory(SelectorProvider.provider(), strategies);
    }

    /**
     * @param threads event loop threads, 0 for Netty's default (twice the cores)
     * @param threadFactory names the threads, or null for Netty's
     * @return a new event loop group of this transport
     */
    public EventLoopGroup newGroup(int threads, ThreadFactory threadFactory) {
        return newGroup(threads, threadFactory, ioHandlerFactory());
    }

    /**
     * @param threads event loop threads, 0 for Netty's default (twice the cores)
     * @param threadFactory names the threads, or null for Netty's
     * @param strategies decide each loop's turn (e.g. {@link BusyPoll#strategies()})
     * @return a new event loop group of this transport
     */
    public EventLoopGroup newGroup(int threads, ThreadFactory threadFactory, SelectStrategyFactory strategies) {
        return newGroup(threads, threadFactory, ioHandlerFactory(strategies));
    }

    private static EventLoopGroup newGroup(int threads, ThreadFactory threadFactory, IoHandlerFactory handlers) {
        return threadFactory == null
                ? new MultiThreadIoEventLoopGroup(threads, handlers)
                : new MultiThreadIoEventLoopGroup(threads, threadFactory, handlers);
    }

    /** @return the class of this transport's TCP client channels */
    public Class<? extends SocketChannel> socketChannel() {
        return this == EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    /** @return the class of this transport's TCP listening channels */
    public Class<? extends ServerChannel> serverSocketChannel() {
        return this == EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    /**
     * A listening channel bound at once on the calling thread (an event loop may call it: no
     * future to wait for), to be registered with a group of this transport.
     *
     * <p>The ports are tried in turn on one socket (a failed bind leaves it unbound, so the next
     * port needs no new socket: on a host whose ports sit in TIME_WAIT a quarter of the attempts can
     * fail, and a socket made and closed per attempt cost more than the bind). SO_REUSEADDR is set,
     * so that an explicit port whose earlier connections wait in TIME_WAIT can be bound again
     * ({@link ListenPorts} says why passive listeners bind explicit ports); a listening socket, or a
     * socket without the option, still holds its port. It does not speed up a bind to port 0:
     * Linux's search still skips every port holding a socket.
     *
     * @param host where to listen
     * @param ports the ports to try, in order (0 for one the kernel chooses); at least one
     * @param backlog the listen backlog
     * @param receiveBufferBytes SO_RCVBUF inherited by accepted sockets (set before listen so that
     *     windows above 64 KiB are negotiated), 0 for the system default
     * @return the unregistered channel, bound and listening
     * @throws IOException the last port's error if no port could be bound, or if listening fails
     * @throws IllegalArgumentException if no port is given
     */
    public ServerChannel boundServerChannel(InetAddress host, int[] ports, int backlog, int receiveBufferBytes)
            throws IOException {
        if (ports.length == 0) {
            throw new IllegalArgumentException("no port to bind");
        }
        if (this == EPOLL) {
            Socket socket = Socket.newSocketStream();
            try {
                socket.setReuseAddress(true); // see above
                if (receiveBufferBytes > 0) {
                    socket.setReceiveBufferSize(receiveBufferBytes);
                }
                bindFirstFree(ports, port -> socket.bind(new InetSocketAddress(host, port)));
                socket.listen(backlog);
                return new EpollServerSocketChannel(socket.intValue());
            } catch (IOException | RuntimeException e) {
                socket.close();
                throw e;
            }
        }
        ServerSocketChannel socket = ServerSocketChannel.open();
        try {
            socket.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            if (receiveBufferBytes > 0) {
                socket.setOption(StandardSocketOptions.SO_RCVBUF, receiveBufferBytes);
            }
            bindFirstFree(ports, port -> socket.bind(new InetSocketAddress(host, port), backlog));
            return new NioServerSocketChannel(socket);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /** Binds the first port of {@code ports} that {@code bind} takes; throws the last one's error. */
    private static void bindFirstFree(int[] ports, PortBinder bind) throws IOException {
        for (int i = 0; ; i++) {
            try {
                bind.bind(ports[i]);
                return;
            } catch (IOException taken) {
                if (i == ports.length - 1) {
                    throw taken;
                }
                // a listener, or a socket without SO_REUSEADDR, holds that port: the next one
            }
        }
    }

    /** One bind attempt of a socket. */
    @FunctionalInterface
    private interface PortBinder {
        void bind(int port) throws IOException;
    }
}
