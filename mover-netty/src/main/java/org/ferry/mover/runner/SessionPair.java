package org.ferry.mover.runner;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.ferry.mover.access.EndpointSessions;
import org.ferry.mover.access.IdleSessionPairs;
import org.ferry.mover.client.GridFtpReplyException;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.server.multicast.MulticastTree;

/**
 * One lane's control channels: a source session and a destination session, opened on first use
 * (each with its endpoint's own login and the chunk's data channel protection; on an endpoint with
 * several servers the first session goes to a random one, and a session reopened after a fault to
 * the next one)
 * and reopened after a fault (a failed transfer may leave either channel unusable). Each session is
 * reported to the chunk's listener, which may close it to stop the lane at once. A multicast chunk's
 * lane also holds one session to each further destination, where it checks and renames the files
 * the first destination forwarded.
 */
final class SessionPair implements AutoCloseable {

    private final EndpointSessions sessions;
    private final IdleSessionPairs idle;
    private final ChunkRequest chunk;
    private final ChunkListener listener;
    private GridFtpSession source;
    private GridFtpSession destination;
    /** Sessions to the further destinations by position, null until opened. */
    private final List<GridFtpSession> additional = new ArrayList<>();

    private String multicastStack;
    private final Set<String> additionalDirectories = new HashSet<>();
    private int sourceServer;
    private int destinationServer;
    private boolean perfMarkersAsked;

    /**
     * @param idle where the pair may start from sessions another piece of work gave back, and
     *     where {@link #giveBack} leaves them; null for none
     */
    SessionPair(EndpointSessions sessions, IdleSessionPairs idle, ChunkRequest chunk, ChunkListener listener) {
        this.sessions = sessions;
        this.idle = idle;
        this.chunk = chunk;
        this.listener = listener;
        Random random = ThreadLocalRandom.current();
        this.sourceServer = random.nextInt(chunk.source().servers().size());
        this.destinationServer = random.nextInt(chunk.destination().servers().size());
    }

    /** @return the logged-in source session */
    GridFtpSession source() throws IOException {
        takeIdle();
        if (source == null) {
            EndpointSessions.Opened opened = sessions.open(chunk.source(), chunk.dataProtection(), sourceServer);
            sourceServer = opened.serverIndex();
            source = opened(opened.session());
        }
        return source;
    }

    /** @return the logged-in destination session */
    GridFtpSession destination() throws IOException {
        takeIdle();
        if (destination == null) {
            EndpointSessions.Opened opened =
                    sessions.open(chunk.destination(), chunk.dataProtection(), destinationServer);
            destinationServer = opened.serverIndex();
            destination = opened(opened.session());
        }
        return destination;
    }

    /**
     * @return a logged-in session to each of the chunk's further destinations ({@link
     *     ChunkRequest#additionalDestinations}), in their order; empty for one destination
     * @throws IOException if a session cannot be opened
     */
    List<GridFtpSession> additionalDestinations() throws IOException {
        List<GridFtpSession> all = new ArrayList<>();
        for (int i = 0; i < chunk.additionalDestinations().size(); i++) {
            all.add(additionalDestination(i));
        }
        return all;
    }

    /**
     * @param index a further destination's position in {@link ChunkRequest#additionalDestinations}
     * @return a logged-in session to it, opened on first use
     * @throws IOException if it cannot be opened
     */
    GridFtpSession additionalDestination(int index) throws IOException {
        while (additional.size() <= index) {
            additional.add(null);
        }
        if (additional.get(index) == null) {
            additional.set(
                    index, opened(sessions.open(chunk.additionalDestinations().get(index), chunk.dataProtection())));
        }
        return additional.get(index);
    }

    /**
     * Closes one further destination's session (a failed one: the next use opens a new one),
     * leaving the lane's others open.
     *
     * @param index its position
     */
    void closeAdditional(int index) {
        if (index < additional.size() && additional.get(index) != null) {
            release(additional.get(index));
            additional.set(index, null);
        }
    }

    /**
     * Makes sure every further destination has the directory a multicast file goes to (the planner
     * creates the tree at the first destination only), creating it and its missing parents (MKD,
     * RFC 959 section 4.1.3); each directory is asked once per lane sessions.
     *
     * @param directory absolute directory path
     * @throws IOException if a destination cannot create it
     */
    void ensureAdditionalDirectory(String directory) throws IOException {
        if (additionalDirectories.contains(directory)) {
            return;
        }
        for (GridFtpSession other : additionalDestinations()) {
            ensureDirectory(other, directory);
        }
        additionalDirectories.add(directory);
    }

    /**
     * As {@link #ensureAdditionalDirectory(String)} at one further destination (one that is sent a
     * file again on its own).
     *
     * @param index its position
     * @param directory absolute directory path
     * @throws IOException if it cannot create it
     */
    void ensureAdditionalDirectory(int index, String directory) throws IOException {
        if (!additionalDirectories.contains(directory)) {
            ensureDirectory(additionalDestination(index), directory);
        }
    }

    private static void ensureDirectory(GridFtpSession session, String directory) throws IOException {
        if (directory.isEmpty() || directory.equals("/")) {
            return;
        }
        try {
            session.stat(directory);
            return;
        } catch (NoSuchFileException missing) {
            // made below
        }
        int slash = directory.lastIndexOf('/');
        ensureDirectory(session, slash <= 0 ? "/" : directory.substring(0, slash));
        try {
            session.makeDirectory(directory);
        } catch (GridFtpReplyException e) {
            session.stat(directory); // another lane made it meanwhile; else the refusal stands
        }
    }

    /**
     * @return the disk stack that makes the first destination forward what it stores to the
     *     further destinations ({@code file,gridftp_multicast:urls=...;cc=2;P=n}, a binary tree with
     *     the chunk's parallelism per forward), the same for every file of the chunk
     * @throws IOException if a further destination's password cannot be unsealed
     */
    String multicastStack() throws IOException {
        if (multicastStack == null) {
            List<Integer> all = new ArrayList<>();
            for (int i = 0; i < chunk.additionalDestinations().size(); i++) {
                all.add(i);
            }
            multicastStack = multicastStack(all);
        }
        return multicastStack;
    }

    /**
     * @param indexes positions of some further destinations, in order
     * @return the disk stack that makes the first destination forward to those only (a retry that
     *     the others do not need)
     * @throws IOException if a further destination's password cannot be unsealed
     */
    String multicastStack(List<Integer> indexes) throws IOException {
        List<String> urls = new ArrayList<>();
        for (int index : indexes) {
            urls.add(sessions.forwardingUrl(chunk.additionalDestinations().get(index)));
        }
        int parallelism = Math.max(1, Math.min(64, chunk.tuning().parallelism()));
        return new MulticastTree(urls, MulticastTree.DEFAULT_CAST_COUNT, parallelism).diskStack();
    }

    /**
     * The destination session, asked once to send its 112 performance markers every second
     * ({@link GridFtpSession#perfMarkerInterval}): a big file's bytes in flight reach the task
     * within about a second instead of the server's default 5 s. A server that refuses TREV keeps
     * its own period.
     *
     * @return the logged-in destination session
     * @throws IOException if the session cannot be opened or its connection fails
     */
    GridFtpSession destinationReportingProgress() throws IOException {
        GridFtpSession session = destination();
        if (!perfMarkersAsked) {
            perfMarkersAsked = true;
            try {
                session.perfMarkerInterval(1);
            } catch (GridFtpReplyException refused) {
                // no TREV there: its markers come at its own period
            }
        }
        return session;
    }

    /**
     * @return whether both servers speak MODE E (asked once per session, see
     *     {@link GridFtpSession#supportsExtendedBlockMode})
     * @throws IOException if a session cannot be opened
     */
    boolean extendedBlockMode() throws IOException {
        if (!source().supportsExtendedBlockMode() || !destination().supportsExtendedBlockMode()) {
            return false;
        }
        // into a server that dials out (a Ferry Connect agent) from one that can be dialled: stream
        // mode, whose receiver may be the active side; MODE E's receiver must listen, which such a
        // server only does through its relay (DialOut)
        return !(destination().dialsOut() && !source().dialsOut());
    }

    /** Starts from an idle pair of the same endpoints when the lane has no sessions yet. */
    private void takeIdle() {
        if (idle == null || source != null || destination != null || chunk.isMulticast()) {
            return;
        }
        IdleSessionPairs.Pair pair = idle.take(key());
        if (pair != null) {
            source = opened(pair.source());
            destination = opened(pair.destination());
        }
    }

    private IdleSessionPairs.Key key() {
        return new IdleSessionPairs.Key(chunk.source(), chunk.destination(), chunk.dataProtection());
    }

    /**
     * Ends the lane's use of its sessions when its last command completed (no fault since): gives
     * both back for the next chunk between the same endpoints, or closes them when there is no
     * cache, only one is open, or the chunk is multicast (its sessions carry further destinations).
     */
    void giveBack() {
        if (idle == null || source == null || destination == null || !additional.isEmpty() || chunk.isMulticast()) {
            close();
            return;
        }
        listener.sessionClosed(source);
        listener.sessionClosed(destination);
        idle.giveBack(key(), new IdleSessionPairs.Pair(source, destination));
        source = null;
        destination = null;
        perfMarkersAsked = false;
    }

    private GridFtpSession opened(GridFtpSession session) {
        listener.sessionOpened(session);
        return session;
    }

    /**
     * Closes both sessions; the next use opens new ones, each on the next server of its endpoint
     * (the lane closes its sessions after a fault: another server may not have it).
     */
    @Override
    public void close() {
        if (source != null) {
            sourceServer++;
        }
        if (destination != null) {
            destinationServer++;
        }
        release(source);
        release(destination);
        additional.forEach(this::release); // release skips null
        additional.clear();
        additionalDirectories.clear();
        source = null;
        destination = null;
        perfMarkersAsked = false;
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
