package org.ferry.mover.runner;

import java.io.IOException;
import org.ferry.mover.access.EndpointAccess;
import org.ferry.mover.access.EndpointSessions;
import org.ferry.mover.client.GridFtpSession;

/**
 * One lane's control channels: a source session and a destination session, opened on first use
 * (each with its endpoint's own login and the chunk's data channel protection)
 * and reopened after a fault (a failed transfer may leave either channel unusable). Each session is
 * reported to the chunk's listener, which may close it to stop the lane at once.
 */
final class SessionPair implements AutoCloseable {

    private final EndpointSessions sessions;
    private final ChunkRequest chunk;
    private final ChunkListener listener;
    private GridFtpSession source;
    private GridFtpSession destination;

    SessionPair(EndpointSessions sessions, ChunkRequest chunk, ChunkListener listener) {
        this.sessions = sessions;
        this.chunk = chunk;
        this.listener = listener;
    }

    /** @return the logged-in source session */
    GridFtpSession source() throws IOException {
        if (source == null) {
            source = open(chunk.source());
        }
        return source;
    }

    /** @return the logged-in destination session */
    GridFtpSession destination() throws IOException {
        if (destination == null) {
            destination = open(chunk.destination());
        }
        return destination;
    }

    private GridFtpSession open(EndpointAccess access) throws IOException {
        GridFtpSession session = sessions.open(access, chunk.dataProtection());
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
