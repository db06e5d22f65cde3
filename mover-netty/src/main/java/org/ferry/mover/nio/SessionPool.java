package org.ferry.mover.nio;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.ferry.mover.client.GridFtpSession;

/**
 * The sessions of one file system: at most {@code maxSessions} open at once (leased plus idle),
 * idle ones reused (last in, first out, so that the MODE E data connections a session caches stay
 * warm), sessions the server closed dropped on the way out. A caller that finds every session
 * leased waits for one up to the wait given, then fails. Closing the pool closes the idle sessions
 * at once and each leased one when it comes back. Thread-safe.
 */
final class SessionPool implements Closeable {

    private final SessionFactory factory;
    private final int maxSessions;
    private final Duration wait;
    private final String what;
    private final Semaphore permits;
    private final Deque<GridFtpSession> idle = new ArrayDeque<>();
    private boolean closed;

    /**
     * @param factory opens new sessions
     * @param maxSessions the bound, at least 1
     * @param wait how long {@link #lease()} waits for a session when all are leased
     * @param what the server, for messages
     */
    SessionPool(SessionFactory factory, int maxSessions, Duration wait, String what) {
        if (maxSessions < 1) {
            throw new IllegalArgumentException("maxSessions must be at least 1, was " + maxSessions);
        }
        this.factory = factory;
        this.maxSessions = maxSessions;
        this.wait = wait;
        this.what = what;
        this.permits = new Semaphore(maxSessions, true);
    }

    /**
     * @return an open session for the caller alone until {@link Lease#close()}
     * @throws IOException if the pool is closed, no session came free within the wait, or a new
     *     session cannot be opened
     */
    Lease lease() throws IOException {
        try {
            if (!permits.tryAcquire(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IOException("all " + maxSessions + " sessions to " + what + " stayed busy for "
                        + wait.toSeconds() + " s (raise " + GridFtpFileSystemProvider.MAX_SESSIONS + ")");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for a session to " + what);
        }
        return leaseWithPermit();
    }

    private Lease leaseWithPermit() throws IOException {
        try {
            GridFtpSession session;
            while ((session = takeIdle()) != null) {
                if (session.isOpen()) {
                    return new Lease(session, true);
                }
                quietlyClose(session); // the server closed it: idle timeout, restart
            }
            return new Lease(factory.open(), false);
        } catch (IOException | RuntimeException e) {
            permits.release();
            throw e;
        }
    }

    /**
     * As {@link #lease()}, but only if a session can be had without waiting for one to come free.
     *
     * @return the lease, or null when every session is leased
     * @throws IOException if the pool is closed or a new session cannot be opened
     */
    Lease tryLease() throws IOException {
        if (!permits.tryAcquire()) {
            return null;
        }
        return leaseWithPermit();
    }

    private synchronized GridFtpSession takeIdle() throws IOException {
        if (closed) {
            throw new IOException("the file system of " + what + " is closed");
        }
        return idle.pollFirst();
    }

    private void giveBack(GridFtpSession session, boolean usable) {
        boolean keep;
        synchronized (this) {
            keep = usable && !closed && session.isOpen();
            if (keep) {
                idle.addFirst(session);
            }
        }
        if (!keep) {
            quietlyClose(session);
        }
        permits.release();
    }

    /**
     * Closes the idle sessions: one of them failed as if its server had gone (a restart, a network
     * cut), and the others most likely lead to the same dead end.
     */
    void dropIdle() {
        List<GridFtpSession> toClose;
        synchronized (this) {
            toClose = new ArrayList<>(idle);
            idle.clear();
        }
        toClose.forEach(SessionPool::quietlyClose);
    }

    /** Closes the idle sessions now and every leased one when it is given back. */
    @Override
    public void close() {
        List<GridFtpSession> toClose;
        synchronized (this) {
            closed = true;
            toClose = new ArrayList<>(idle);
            idle.clear();
        }
        toClose.forEach(SessionPool::quietlyClose);
    }

    private static void quietlyClose(GridFtpSession session) {
        try {
            session.close();
        } catch (IOException | RuntimeException e) {
            // closing a broken session: nothing left to do
        }
    }

    /**
     * One session lent out. A failure that leaves the session's state unknown (anything but a
     * server's negative reply) must be {@linkplain #failed reported}, so that it is not reused.
     */
    final class Lease implements AutoCloseable {
        private final GridFtpSession session;
        private final boolean reused;
        private boolean broken;
        private boolean returned;

        private Lease(GridFtpSession session, boolean reused) {
            this.session = session;
            this.reused = reused;
        }

        /** @return whether the session served an earlier lease (rather than being opened for this one) */
        boolean reused() {
            return reused;
        }

        GridFtpSession session() {
            return session;
        }

        /**
         * Records a failure of an operation on this session: unless it was the server's negative
         * reply (the session lives on), the session is closed when the lease ends.
         *
         * @param e the failure
         */
        void failed(Throwable e) {
            if (!(e instanceof IOException io && GridFtpFileSystem.isReply(io))) {
                broken = true;
            }
        }

        @Override
        public void close() {
            if (!returned) {
                returned = true;
                giveBack(session, !broken);
            }
        }
    }
}
