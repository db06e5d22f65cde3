package org.ferry.scheduler.drive;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.springframework.stereotype.Component;

/**
 * Wakes the scheduler's tick before its interval is over: a submission, a cancel, a chunk's end or
 * a finished planning each call {@link #wake}, so a short task does not wait for the next tick.
 */
@Component
public class Wakeup {

    private final Semaphore signal = new Semaphore(0);

    /** Asks for a tick as soon as possible. */
    public void wake() {
        if (signal.availablePermits() == 0) {
            signal.release();
        }
    }

    /**
     * Waits for a wake-up or the timeout, then clears the pending ones.
     *
     * @throws InterruptedException on shutdown
     */
    void await(Duration timeout) throws InterruptedException {
        signal.tryAcquire(timeout.toMillis(), TimeUnit.MILLISECONDS);
        signal.drainPermits();
    }
}
