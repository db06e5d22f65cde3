package org.ferry.mover.server.multicast;

import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.GridFtpUrl;

/**
 * A server's multicast settings: how it reaches the next servers of a tree and how long it keeps
 * trying a branch that failed. Multicast is off unless a server is given one of these
 * ({@code ferry-gridftp --multicast}): a server that forwards to any address a client names is a
 * relay, so a site turns it on deliberately, as globus-gridftp-server needs the driver on its
 * {@code -fs-whitelist}.
 *
 * @param sessions opens a logged-in session to a next server
 * @param windowBytes the most bytes one forwarded window carries (one ESTO per window and branch);
 *     a window goes as soon as it is on this server's disk, so smaller windows follow the incoming
 *     data more closely and larger ones cost fewer commands
 * @param retryFor how long a failed branch is retried (reconnect, then resend what its markers
 *     lack) before the transfer fails naming it; counted again from a later failure that finds the
 *     child further on than ever before
 * @param retryPause the pause between two attempts on a failed branch
 */
public record MulticastPolicy(Sessions sessions, long windowBytes, Duration retryFor, Duration retryPause) {

    /** Default {@link #windowBytes}: 8 MiB. */
    public static final long DEFAULT_WINDOW_BYTES = 8L << 20;

    /** Opens sessions to the next servers of a tree. */
    @FunctionalInterface
    public interface Sessions {
        /**
         * @param url a next server (its path is not used)
         * @return a logged-in session
         * @throws IOException if the server cannot be reached or refuses the login
         */
        GridFtpSession open(GridFtpUrl url) throws IOException;
    }

    /** @throws IllegalArgumentException for a non-positive window or a negative duration */
    public MulticastPolicy {
        Objects.requireNonNull(sessions, "sessions");
        Objects.requireNonNull(retryFor, "retryFor");
        Objects.requireNonNull(retryPause, "retryPause");
        if (windowBytes <= 0 || retryFor.isNegative() || retryPause.isNegative()) {
            throw new IllegalArgumentException("window must be positive, durations >= 0");
        }
    }

    /**
     * @param sessions opens sessions to the next servers
     * @return 8 MiB windows, a failed branch retried for 2 minutes every second
     */
    public static MulticastPolicy of(Sessions sessions) {
        return new MulticastPolicy(sessions, DEFAULT_WINDOW_BYTES, Duration.ofMinutes(2), Duration.ofSeconds(1));
    }
}
