package org.ferry.mover.client;

import java.io.InterruptedIOException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Wakes a session thread that waits on several things at once: the replies of two control
 * channels in a third-party transfer, or a control channel and a local data transfer. Each source
 * calls {@link #signal()} when something arrives; the waiter then looks at all of them without
 * blocking. Waiting on one source with a timeout and then on the other would stall a pipelined
 * batch for the whole timeout whenever the first source stays quiet (seen: 20-50 ms per file).
 * Thread-safe; one waiter.
 */
final class Wakeup {

    private final Semaphore signals = new Semaphore(0);

    /** Something arrived; called from any thread (usually an event loop). */
    void signal() {
        signals.release();
    }

    /**
     * Waits until a signal comes (or one came since the last wait), at most {@code timeoutMillis}.
     *
     * @return true if signalled, false if the time passed
     * @throws InterruptedIOException if the thread is interrupted
     */
    boolean await(long timeoutMillis) throws InterruptedIOException {
        try {
            boolean signalled = signals.tryAcquire(timeoutMillis, TimeUnit.MILLISECONDS);
            signals.drainPermits(); // the waiter looks at every source next, so older signals are spent
            return signalled;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for a reply");
        }
    }
}
