package org.ferry.mover.data;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The MODE E data connections one side of a session keeps open between transfers (GFD.020
 * "Extended Block Mode": EOD without CLOSE leaves a connection usable; GFD.020 "Extended Block Mode", data connection reuse). A following transfer in the same direction with no new PASV/PORT reuses them; the
 * owner {@linkplain #clear() clears} the cache on a new PASV/PORT/SPAS/SPOR, a MODE, DCAU or PROT
 * change, a failed transfer, or the end of the session.
 *
 * <p>Connections are kept for one direction at a time: sending ones (this side connected and
 * sends; the {@link ModeEFrameEncoder} and the {@link ModeESender} that ended the last transfer stay
 * in the pipeline) or receiving ones (this side accepted and receives; the decoder, a
 * {@link ModeEReceiveGate} holding back any bytes of the next transfer that arrive early, the block
 * writer and the EOD counter stay). While a connection waits, those handlers guard it: inbound bytes
 * on a sending connection are dropped, an error (a reset by the peer) closes it. A connection the peer closes leaves the cache.
 * Thread-safe: filled from I/O threads when a transfer succeeds, drained by the session's thread.
 */
public final class ModeECache implements AutoCloseable {

    /** Which way the cached connections carry data. */
    enum Direction {
        SEND,
        RECEIVE
    }

    private final List<Channel> idle = new ArrayList<>();
    /** Connections whose close this cache listens for: once per connection, not per transfer (guarded by this). */
    private final Set<Channel> watched = new HashSet<>();

    private Direction direction;

    /** @return number of idle connections kept (either direction) */
    public synchronized int size() {
        dropInactive(idle);
        return idle.size();
    }

    /** @return true if no connection is kept */
    public boolean isEmpty() {
        return size() == 0;
    }

    /**
     * @return true if connections are kept for sending (a following send may reuse them)
     */
    public boolean hasSending() {
        return hasFor(Direction.SEND);
    }

    /** @return true if connections are kept for receiving (a following receive may reuse them) */
    public boolean hasReceiving() {
        return hasFor(Direction.RECEIVE);
    }

    private synchronized boolean hasFor(Direction wanted) {
        return direction == wanted && size() > 0;
    }

    /** Keeps {@code channel} for the next transfer in {@code way}; a cache of the other direction is cleared. */
    void put(Channel channel, Direction way) {
        List<Channel> dropped = null;
        boolean firstTime;
        synchronized (this) {
            if (direction != way) {
                dropped = new ArrayList<>(idle);
                idle.clear();
                direction = way;
            }
            idle.add(channel);
            // A connection kept after every file of a pipelined batch would otherwise gather one
            // listener per file on its close future: heap that grows with the session's file count.
            firstTime = watched.add(channel);
        }
        if (dropped != null) {
            for (Channel other : dropped) {
                closeIdle(other);
            }
        }
        if (firstTime) {
            channel.closeFuture().addListener((ChannelFutureListener) f -> forget(f.channel()));
        }
    }

    /**
     * Takes every live connection kept for {@code way}; connections kept for the other direction
     * are closed.
     *
     * @return the connections, now owned by the caller
     */
    List<Channel> takeAll(Direction way) {
        List<Channel> taken;
        synchronized (this) {
            if (idle.isEmpty()) {
                return List.of();
            }
            taken = new ArrayList<>(idle);
            idle.clear();
            if (direction != way) {
                for (Channel other : taken) {
                    closeIdle(other);
                }
                return List.of();
            }
        }
        dropInactive(taken);
        return taken;
    }

    private synchronized void forget(Channel channel) {
        watched.remove(channel);
        idle.remove(channel);
    }

    /** Removes the closed connections; a loop, not removeIf: it runs for every file of a batch. */
    private static void dropInactive(List<Channel> channels) {
        for (int i = channels.size() - 1; i >= 0; i--) {
            if (!channels.get(i).isActive()) {
                channels.remove(i);
            }
        }
    }

    /** Closes every kept connection (sending ones announce it with a CLOSE header first). Never throws. */
    public void clear() {
        List<Channel> dropped;
        synchronized (this) {
            dropped = new ArrayList<>(idle);
            idle.clear();
        }
        dropped.forEach(ModeECache::closeIdle);
    }

    /** Same as {@link #clear()}. */
    @Override
    public void close() {
        clear();
    }

    /**
     * Closes an idle connection. A sending one says so first with a zero-length {@code CLOSE|EOD}
     * header (globus's way of dropping a cached connection, GFD.020 "Extended Block Mode"), so
     * the receiver does not take the close for a lost transfer.
     */
    static void closeIdle(Channel channel) {
        if (channel.isActive() && channel.pipeline().get(ModeEFrameEncoder.NAME) != null) {
            channel.writeAndFlush(new ModeEHeader(ModeEHeader.CLOSE | ModeEHeader.EOD, 0, 0))
                    .addListener(ChannelFutureListener.CLOSE);
        } else {
            channel.close();
        }
    }
}
