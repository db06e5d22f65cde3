package org.ferry.mover.connect;

import java.io.IOException;
import java.net.InetSocketAddress;

/** Opens a port on the relay that leads to a local port, through the agent's current connection. */
public interface RelayPorts {

    /**
     * @param localPort a port on the agent's loopback address
     * @return the relay's address and port that now lead there
     * @throws IOException if the agent is not connected or the relay refuses
     */
    InetSocketAddress open(int localPort) throws IOException;

    /**
     * Closes a port {@link #open} returned; nothing if it is gone already. Never throws.
     *
     * @param relayAddress what {@link #open} returned
     */
    void close(InetSocketAddress relayAddress);
}
