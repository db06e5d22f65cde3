package org.ferry.mover.client;

import java.io.IOException;
import java.time.Duration;

/**
 * Opens GridFTP control sessions. One instance owns the Netty event loop shared by all of its
 * sessions; close it to release the threads.
 */
public final class GridFtpClient implements AutoCloseable {

    /** Connect/read timeout applied to every reply wait. */
    private final Duration replyTimeout;

    /** @param replyTimeout how long to wait for any one reply before failing with an IOException */
    public GridFtpClient(Duration replyTimeout) {
        this.replyTimeout = replyTimeout;
    }

    /** A client with a 120-second reply timeout. */
    public GridFtpClient() {
        this(Duration.ofSeconds(120));
    }

    /**
     * Connects, reads the 220 banner, logs in with USER/PASS from the URL, sends TYPE I.
     *
     * @param url server and credentials (the path is ignored)
     * @return a logged-in session
     * @throws IOException if the connection or the login fails (530 as {@link GridFtpReplyException})
     */
    public GridFtpSession open(GridFtpUrl url) throws IOException {
        throw new UnsupportedOperationException("TODO: implemented by the client work");
    }

    @Override
    public void close() {
    }
}
