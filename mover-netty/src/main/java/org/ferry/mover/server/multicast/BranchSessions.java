package org.ferry.mover.server.multicast;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.ferry.mover.client.GridFtpSession;

/**
 * The sessions one control session's multicast stage holds to its children, kept from one
 * transfer to the next (a child is forwarded many windows, each an ESTO over the same session and
 * its cached MODE E connections), closed with the stage.
 */
final class BranchSessions {

    private final MulticastPolicy policy;
    private final Map<String, GridFtpSession> open = new HashMap<>();
    private boolean closed;

    BranchSessions(MulticastPolicy policy) {
        this.policy = policy;
    }

    /**
     * @return the open session to the branch's child, logged in and, for a child with a subtree,
     *     told its disk stack ({@code SITE SETDISKSTACK})
     * @throws IOException if the child cannot be reached or refuses
     */
    GridFtpSession session(MulticastTree.Branch branch) throws IOException {
        synchronized (this) {
            if (closed) {
                throw new java.io.InterruptedIOException("the session's multicast stage is closed");
            }
            GridFtpSession session = open.get(branch.url());
            if (session != null && session.isOpen()) {
                return session;
            }
        }
        GridFtpSession session = policy.sessions().open(branch.server());
        try {
            if (branch.below() != null) {
                session.setDiskStack(branch.below().diskStack());
            }
        } catch (IOException | RuntimeException e) {
            closeQuietly(session);
            throw e;
        }
        synchronized (this) {
            GridFtpSession old = open.put(branch.url(), session);
            if (old != null) {
                closeQuietly(old);
            }
            if (closed) {
                closeAll();
            }
        }
        return session;
    }

    /** Closes the branch's session after a failure (its state is unknown). */
    synchronized void drop(MulticastTree.Branch branch) {
        GridFtpSession session = open.remove(branch.url());
        if (session != null) {
            closeQuietly(session);
        }
    }

    /** Closes every session; later calls to {@link #session} fail. */
    synchronized void closeAll() {
        closed = true;
        open.values().forEach(BranchSessions::closeQuietly);
        open.clear();
    }

    private static void closeQuietly(GridFtpSession session) {
        try {
            session.close();
        } catch (IOException | RuntimeException e) {
            // a broken session is being dropped
        }
    }
}
