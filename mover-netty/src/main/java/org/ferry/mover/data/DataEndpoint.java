package org.ferry.mover.data;

import java.net.InetSocketAddress;

/**
 * How the data connections of the next transfer are made (RFC 959 section 3.2): this side listens
 * ({@link Passive}, after PASV/EPSV on a server, or the client's own listener before PORT) or this
 * side connects to an address it was given ({@link Active}, PORT/EPRT on a server, or the client
 * after a PASV reply).
 */
public sealed interface DataEndpoint {

    /** This side accepts connections on an open listener. */
    record Passive(PassiveListener listener) implements DataEndpoint {}

    /** This side connects to {@code address}. */
    record Active(InetSocketAddress address) implements DataEndpoint {}
}
