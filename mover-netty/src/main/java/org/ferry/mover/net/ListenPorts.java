package org.ferry.mover.net;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The ports passive data listeners (PASV, EPSV, SPAS; RFC 959 section 4.1.2) try before leaving
 * the choice to the kernel: random ports of the kernel's ephemeral range, bound with SO_REUSEADDR.
 *
 * <p>Why not bind to port 0: a passive listener's port ends in TIME_WAIT after its one connection
 * (in stream mode the sending server closes first). Linux's search for a port to bind skips every
 * port that holds any socket, TIME_WAIT ones included, under a lock per port; after a few thousand
 * small files through {@code globus-url-copy -cc 4} each PASV spent milliseconds to tens of
 * milliseconds there, and rounds of 5,000 files took 12-26 s instead of 1.6-2 s. An explicit port
 * with SO_REUSEADDR is one lookup, and TIME_WAIT sockets of earlier listeners do not block it (a
 * listening socket, or a socket without the option, still does: then the next attempt).
 *
 * @param low the first port of the range
 * @param high the last port of the range (inclusive)
 */
public record ListenPorts(int low, int high) {

    /** Random ports tried before binding to port 0. */
    public static final int ATTEMPTS = 8;

    /** Linux's default {@code ip_local_port_range}. */
    static final ListenPorts LINUX_DEFAULT = new ListenPorts(32768, 60999);

    private static final ListenPorts SYSTEM = fromKernel(Path.of("/proc/sys/net/ipv4/ip_local_port_range"));

    /**
     * @throws IllegalArgumentException unless {@code 1 <= low <= high <= 65535}
     */
    public ListenPorts {
        if (low < 1 || high > 65535 || low > high) {
            throw new IllegalArgumentException("bad port range " + low + "-" + high);
        }
    }

    /** @return the kernel's ephemeral range as it was when this class loaded (Linux's default elsewhere) */
    public static ListenPorts system() {
        return SYSTEM;
    }

    /**
     * @param file a file in the format of {@code /proc/sys/net/ipv4/ip_local_port_range} (two
     *     numbers separated by white space)
     * @return its range, or Linux's default when the file is missing or malformed
     */
    static ListenPorts fromKernel(Path file) {
        try {
            String[] fields = Files.readString(file).trim().split("\\s+");
            if (fields.length == 2) {
                return new ListenPorts(Integer.parseInt(fields[0]), Integer.parseInt(fields[1]));
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or an unreadable value: the default below
        }
        return LINUX_DEFAULT;
    }

    /**
     * @return the ports a listener tries, in order: {@link #ATTEMPTS} random ports of the range, then
     *     0 (the kernel's choice)
     */
    public int[] candidates() {
        int[] ports = new int[ATTEMPTS + 1];
        for (int i = 0; i < ATTEMPTS; i++) {
            ports[i] = pick();
        }
        return ports; // the last stays 0
    }

    /** @return a random port of the range */
    public int pick() {
        return ThreadLocalRandom.current().nextInt(low, high + 1);
    }
}
