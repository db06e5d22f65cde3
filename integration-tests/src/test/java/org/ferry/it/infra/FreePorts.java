package org.ferry.it.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free loopback ports, picked at run time. */
public final class FreePorts {

    private FreePorts() {}

    /** @return a port free on 127.0.0.1 at the time of the call */
    public static int pick() {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
