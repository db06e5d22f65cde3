package org.ferry.mover.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.ferry.mover.protocol.FtpReply;

/**
 * The one way every client operation waits for replies: an inactivity clock (the reply timeout
 * counts from the last sign of life, a reply, a marker or data progress, so long transfers that
 * keep reporting never time out), a {@link Wakeup} that the watched control channels and data
 * transfers signal (never a timed wait on one of several sources), and ABOR (RFC 959 section
 * 4.1.3) for a command that must be stopped. Used by one thread; {@link #close()} unregisters it
 * from the channels.
 */
final class ReplyWaiter implements AutoCloseable {

    /** The longest pause between two looks when nothing signals (a data progress is not signalled). */
    static final long POLL_MILLIS = 50;

    /** How long to wait for the replies to ABOR before giving up on them. */
    private static final long ABORT_WAIT_MILLIS = 5_000;

    private final Duration inactivityTimeout;
    private final Wakeup wakeup = new Wakeup();
    private final List<ControlChannel> watched = new ArrayList<>(2);
    private long lastSign = System.nanoTime();

    /** @param inactivityTimeout how long every watched source may stay silent */
    ReplyWaiter(Duration inactivityTimeout) {
        this.inactivityTimeout = inactivityTimeout;
    }

    /**
     * Wakes the waiter on every reply of {@code channel}.
     *
     * @return this
     */
    ReplyWaiter watch(ControlChannel channel) {
        channel.wakeup(wakeup);
        watched.add(channel);
        return this;
    }

    /**
     * Wakes the waiter on the replies of {@code channel} that {@code when} accepts (the test runs on
     * the channel's event loop).
     *
     * @return this
     */
    ReplyWaiter watch(ControlChannel channel, Predicate<FtpReply> when) {
        channel.wakeup(wakeup, when);
        watched.add(channel);
        return this;
    }

    /** Wakes the waiter when {@code transfer} completes, normally or not. */
    void watch(CompletableFuture<?> transfer) {
        transfer.whenComplete((value, failure) -> wakeup.signal());
    }

    /** Records a sign of life: the inactivity clock starts again. */
    void alive() {
        lastSign = System.nanoTime();
    }

    /**
     * @param what the operation, for the message
     * @throws SocketTimeoutException if nothing was heard for the inactivity timeout
     */
    void checkAlive(String what) throws SocketTimeoutException {
        if (System.nanoTime() - lastSign > inactivityTimeout.toNanos()) {
            throw new SocketTimeoutException(
                    what + ": no reply, marker or data for " + inactivityTimeout.toSeconds() + " s");
        }
    }

    /**
     * Waits until a watched source signals, at most {@link #POLL_MILLIS}.
     *
     * @throws InterruptedIOException if the thread is interrupted
     */
    void pause() throws InterruptedIOException {
        wakeup.await(POLL_MILLIS);
    }

    @Override
    public void close() {
        for (ControlChannel channel : watched) {
            channel.wakeup(null);
        }
        watched.clear();
    }

    /**
     * Sends ABOR and drains the replies, ignoring failures: RFC 959 expects 426 for the transfer
     * and then 226 for ABOR, but a transfer that had just finished gives its 226 and then ABOR's,
     * and globus-gridftp-server sometimes closes the control connection instead (seen with ABOR
     * during a third-party RETR), so after an abort the session may be unusable.
     */
    static void abort(ControlChannel channel) {
        try {
            channel.send("ABOR");
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ABORT_WAIT_MILLIS);
            int finals = 0;
            while (finals < 2 && System.nanoTime() < deadline) {
                FtpReply reply = channel.poll(POLL_MILLIS);
                if (reply != null && !reply.isPreliminary() && finals++ == 0) {
                    // a second final reply may follow soon; do not leave it to desynchronise the next command
                    deadline = Math.min(deadline, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1_000));
                }
            }
        } catch (IOException e) {
            // the connection is broken already: nothing to abort
        }
    }
}
