package org.ferry.mover.net;

import io.netty.channel.Channel;
import io.netty.channel.DefaultSelectStrategyFactory;
import io.netty.channel.SelectStrategy;
import io.netty.channel.SelectStrategyFactory;
import io.netty.util.IntSupplier;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * Busy polling for a server's event loops: a loop that has just answered a client's command
 * ({@link #expectCommand()}) polls its sockets without blocking for a short window before it sleeps
 * in {@code epoll_wait} again, so the client's next command (globus-url-copy {@code -pp} sends the
 * next RETR once it has stored the previous file) finds the loop awake instead of paying a wake-up:
 * an interrupt to an idle core (a VM exit on a virtual machine), a context switch, the thread's
 * caches refilled. The same trade as Linux's {@code net.core.busy_poll} and Netty's own {@link
 * SelectStrategy#BUSY_WAIT}, bounded in time, in sessions and in cores.
 *
 * <p>Spinning pays only while a core would otherwise idle. So a loop spins only while the server
 * has at most {@code cores - 1} sessions open (with more, the loops stay busy and clients on the same
 * host need the cores), at most that many loops spin at once, and only after a command's last reply:
 * a loop moving a big file's data never spins. A loop spins the full window while its replies follow
 * each other within twice the window (a client close by, pipelining), else a sixteenth of it, so that
 * a client further away does not cost a core. Spinning never delays work: a loop that finds events or
 * tasks handles them at once.
 *
 * <p>One instance per server: it counts the server's sessions ({@link #track}) and its spinning
 * loops; {@link #strategies()} gives each of the server's loops its own strategy. A zero window
 * turns it off: the loops get Netty's default strategy and {@link #expectCommand()} does nothing.
 */
public final class BusyPoll {

    /** The window after replies more than two windows apart: a sixteenth of the full one. */
    private static final int SHRINK = 16;

    private final LongSupplier nanoClock;
    private final long maxWindowNanos;
    private final long minWindowNanos;
    private final int spareCores;
    private final AtomicInteger sessions = new AtomicInteger();
    private final AtomicInteger spinners = new AtomicInteger();
    /** The strategy of the loop running on the current thread, if it is one of ours. */
    private final ThreadLocal<LoopStrategy> currentLoop = new ThreadLocal<>();

    /**
     * @param window how long a loop polls after a command's last reply before it blocks; zero for
     *     never
     * @param cores the cores of the machine ({@link Runtime#availableProcessors()}); one is left to
     *     everything else, so on a single core no loop spins (the client's next command could only
     *     be made while the loop does not)
     * @throws IllegalArgumentException if the window is negative or cores is below 1
     */
    public BusyPoll(Duration window, int cores) {
        this(window, cores, System::nanoTime);
    }

    /** As {@link #BusyPoll(Duration, int)} with the clock in nanoseconds given (tests move it by hand). */
    BusyPoll(Duration window, int cores, LongSupplier nanoClock) {
        if (window.isNegative() || cores < 1) {
            throw new IllegalArgumentException("busy poll needs a window of zero or more and at least one core");
        }
        this.nanoClock = nanoClock;
        this.maxWindowNanos = window.toNanos();
        this.minWindowNanos = Math.max(1, maxWindowNanos / SHRINK);
        this.spareCores = cores - 1;
    }

    /**
     * Counts a session (a control connection) until its channel closes.
     *
     * @param session the session's channel
     */
    public void track(Channel session) {
        sessions.incrementAndGet();
        session.closeFuture().addListener(f -> sessions.decrementAndGet());
    }

    /**
     * Tells the current event loop that a session on it has answered its commands and waits for
     * the next: the loop may spin for the window. Does nothing on any other thread.
     */
    public void expectCommand() {
        LoopStrategy loop = currentLoop.get();
        if (loop != null) {
            loop.expectCommand();
        }
    }

    /**
     * @return makes one strategy per event loop, for {@link Transport#newGroup(int,
     *     java.util.concurrent.ThreadFactory, SelectStrategyFactory)}
     */
    public SelectStrategyFactory strategies() {
        return maxWindowNanos == 0 ? DefaultSelectStrategyFactory.INSTANCE : LoopStrategy::new;
    }

    /** @return the loops spinning now */
    int spinners() {
        return spinners.get();
    }

    /** @return the window the current thread's loop opens on its next {@link #expectCommand()}, in ns; -1 if none */
    long currentWindowNanos() {
        LoopStrategy loop = currentLoop.get();
        return loop == null ? -1 : loop.windowNanos();
    }

    private boolean startSpinning() {
        if (spareCores == 0 || sessions.get() > spareCores) {
            return false;
        }
        if (spinners.incrementAndGet() <= spareCores) {
            return true;
        }
        spinners.decrementAndGet();
        return false;
    }

    /** One loop's strategy; used only on that loop's thread. */
    private final class LoopStrategy implements SelectStrategy {
        /** The window the next {@link #expectCommand()} opens. */
        private long windowNanos = maxWindowNanos;
        /** {@link #nanoClock} at the last {@link #expectCommand()}, if {@link #expected}. */
        private long expectedAt;
        /** {@link #expectCommand()} has been called before. */
        private boolean expected;
        /** {@link #nanoClock} until which the loop may spin. */
        private long spinUntil;
        /** Nothing came since {@link #expectCommand()}. */
        private boolean expecting;
        /** This loop holds one of the {@link #spinners} places. */
        private boolean spinning;
        /** This loop's thread knows this strategy as {@link #currentLoop}. */
        private boolean registered;

        @Override
        public int calculateStrategy(IntSupplier selectNow, boolean hasTasks) throws Exception {
            if (!registered) {
                registered = true;
                currentLoop.set(this);
            }
            if (hasTasks) {
                return selectNow.get(); // as Netty's default: poll without blocking, then run the tasks
            }
            if (expecting && nanoClock.getAsLong() - spinUntil < 0 && (spinning || startSpinning())) {
                spinning = true;
                int ready = selectNow.get();
                if (ready > 0) {
                    expecting = false;
                } else {
                    Thread.onSpinWait();
                }
                return ready;
            }
            expecting = false;
            if (spinning) {
                spinning = false;
                spinners.decrementAndGet();
            }
            return SELECT;
        }

        void expectCommand() {
            long now = nanoClock.getAsLong();
            if (expected) {
                // replies following each other within two windows: a client close by, pipelining
                windowNanos = now - expectedAt < 2 * maxWindowNanos ? maxWindowNanos : minWindowNanos;
            }
            expected = true;
            expectedAt = now;
            spinUntil = now + windowNanos;
            expecting = true;
        }

        long windowNanos() {
            return windowNanos;
        }
    }
}
