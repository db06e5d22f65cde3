package org.ferry.mover.client;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.ferry.mover.protocol.FtpReply;

/**
 * Decides, on the control channels' event loops, when the session thread running a pipelined
 * third-party batch (GridFTP pipelining (Bresnahan et al., TeraGrid 2007)) must look at the replies: at once for a
 * negative final reply, otherwise when both sides have answered the number of steps the thread
 * asked for. The thread asks for several steps each time it has refilled the pipeline, so it wakes
 * once per several finished files rather than for every 150, 226 and marker of both sides (each
 * wake-up is a thread hand-off; globus-url-copy, with one select loop, has none). Counts are of
 * final (non-1xx) replies since the gate was made. Thread-safe.
 */
final class StepCompletionGate {

    private final AtomicInteger sourceFinals = new AtomicInteger();
    private final AtomicInteger sinkFinals = new AtomicInteger();
    private volatile int wakeAt = 1;

    /** @return the test for the source's replies, for {@link ControlChannel#wakeup(Wakeup, Predicate)} */
    Predicate<FtpReply> source() {
        return reply -> arrived(sourceFinals, reply);
    }

    /** @return the test for the destination's replies */
    Predicate<FtpReply> sink() {
        return reply -> arrived(sinkFinals, reply);
    }

    private boolean arrived(AtomicInteger finals, FtpReply reply) {
        if (reply.isPreliminary()) {
            return false; // 150s and markers: read with the next final reply, or at the next timed look
        }
        finals.incrementAndGet();
        return !reply.isPositiveCompletion() || completed() >= wakeAt;
    }

    /** @return steps both sides have answered so far */
    int completed() {
        return Math.min(sourceFinals.get(), sinkFinals.get());
    }

    /**
     * Sets when the next wake-up comes.
     *
     * @param steps wake the waiter once both sides have answered this many steps
     * @return true if they already have (the caller looks again instead of waiting)
     */
    boolean wakeAt(int steps) {
        wakeAt = steps;
        // read after the write: an event loop that counted its reply before seeing the new target
        // is seen here, so no wake-up is lost between the two
        return completed() >= steps;
    }
}
