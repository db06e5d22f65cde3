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

    /** Stops listening and closes connections not yet handed to a transfer. Never throws. */
    @Override
    void close();
}
