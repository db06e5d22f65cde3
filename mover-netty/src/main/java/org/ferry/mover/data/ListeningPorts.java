package org.ferry.mover.data;

import io.netty.channel.Channel;
import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The local TCP ports on which one data transfer process (a {@link DataChannels} and its views)
 * accepts data connections: those of its open passive listeners and of the connections they
 * accepted, which keep the listener's port after it closed (a cached MODE E connection outlives
 * the PASV that made it). A server asks it whether a PORT/EPRT address is its own, that is whether
 * a transfer runs between two of its own sessions (a third-party transfer inside one server).
 * Thread-safe: listeners bind on command workers and event loops, connections close on event loops.
 */
final class ListeningPorts {

    /** Port to the number of open sockets (listeners and accepted connections) bound to it. */
    private final ConcurrentHashMap<Integer, Integer> sockets = new ConcurrentHashMap<>();

    /**
     * Counts {@code channel}'s local port until the channel closes.
     *
     * @param channel a bound listener or an accepted connection; ignored if it has no IP address
     */
    void hold(Channel channel) {
        if (channel.localAddress() instanceof InetSocketAddress local) {
            Integer port = local.getPort();
            sockets.merge(port, 1, Integer::sum);
            channel.closeFuture().addListener(closed -> sockets.computeIfPresent(port, (p, n) -> n > 1 ? n - 1 : null));
        }
    }

    /**
     * @param port a TCP port, 0..65535
     * @return whether an open listener or accepted connection of this data transfer process is bound to it
     */
    boolean contains(int port) {
        return sockets.containsKey(port);
    }
}
