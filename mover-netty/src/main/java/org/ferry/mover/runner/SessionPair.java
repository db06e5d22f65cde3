package org.ferry.mover.runner;

import java.io.IOException;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.GridFtpUrl;

/**
 * One lane's control channels: a source session and a destination session, opened on first use
 * and reopened after a fault (a failed transfer may leave either channel unusable). Each session is
 * reported to the chunk's listener, which may close it to stop the lane at once.
 */
final class SessionPair implements AutoCloseable {

    private final GridFtpClient client;
    private final GridFtpUrl sourceUrl;
    private final GridFtpUrl destinationUrl;
    private final ChunkListener listener;
    private GridFtpSession source;
    private GridFtpSession destination;

    SessionPair(GridFtpClient client, ChunkRequest chunk, ChunkListener listener) {
        this.client = client;
        this.sourceUrl = chunk.source();
        this.destinationUrl = chunk.destination();
        this.listener = listener;
    }

    /** @return the logged-in source session */
    GridFtpSession source() throws IOException {
        if (source == null) {
            source = open(sourceUrl);
        }
        return source;
    }

    /** @return the logged-in destination session */
    GridFtpSession destination() throws IOException {
        if (destination == null) {
            destination = open(destinationUrl);
        }
        return destination;
    }

    /**
     * @return whether both servers speak MODE E (asked once per session, see
     *     {@link GridFtpSession#supportsExtendedBlockMode})
     * @throws IOException if a session cannot be opened
     */
    boolean extendedBlockMode() throws IOException {
        return source().supportsExtendedBlockMode() && destination().supportsExtendedBlockMode();
    }

    private GridFtpSession open(GridFtpUrl url) throws IOException {
        GridFtpSession session = client.open(url);
        listener.sessionOpened(session);
        return session;
    }

    /** Closes both sessions; the next use opens new ones. */
    @Override
    public void close() {
        release(source);
        release(destination);
        source = null;
        destination = null;
    }

    private void release(GridFtpSession session) {
        if (session == null) {
            return;
        }
        listener.sessionClosed(session);
        try {
            session.close();
        } catch (IOException | RuntimeException ignored) {
            // a broken control channel is what we are getting rid of
        }
    }
}
