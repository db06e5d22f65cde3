package org.ferry.mover.data;

import java.io.Closeable;
import java.net.InetSocketAddress;

/**
 * A bound listening socket for incoming data connections (PASV/EPSV, or a client listening before
 * PORT). Connections accepted before a transfer starts are queued for it. Closing it stops
 * accepting; connections already handed to a transfer are owned by that transfer.
 */
public interface PassiveListener extends Closeable {

    /** @return the bound address and port, as announced in a 227/229 reply or a PORT command */
    InetSocketAddress address();

    /**
     * Runs {@code action} once when this listener closes (at once if it is closed already): what an
     * embedding server tied to the listener (a port opened for it elsewhere, e.g. on a relay) ends
     * with it. The default runs nothing: listeners that keep no such hooks.
     *
     * @param action a quick, non-blocking action; exceptions it throws are ignored
     */
    default void whenClosed(Runnable action) {}

    /** Stops listening and closes connections not yet handed to a transfer. Never throws. */
    @Override
    void close();
}
