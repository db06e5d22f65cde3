package org.ferry.mover.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.channel.DefaultSelectStrategyFactory;
import io.netty.channel.SelectStrategy;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.IntSupplier;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The decisions of {@link BusyPoll}'s per-loop strategy, taken on the test thread as an event loop
 * takes them on its own: Netty calls {@code calculateStrategy} with a non-blocking poll before each
 * turn, and a negative answer (SELECT) makes the loop block. The poll reports what the test says is
 * ready, and the clock moves only when the test moves it.
 */
class BusyPollTest {

    private static final Duration WINDOW = Duration.ofMillis(50);
    private static final IntSupplier NOTHING_READY = () -> 0;

    private final AtomicLong clock = new AtomicLong(-1_000_000_000); // nanoTime may be negative

    private BusyPoll busyPoll(int cores) {
        return new BusyPoll(WINDOW, cores, clock::get);
    }

    /** A loop of {@code busyPoll} on this thread that has just answered a command. */
    private static SelectStrategy answered(BusyPoll busyPoll) throws Exception {
        SelectStrategy loop = busyPoll.strategies().newSelectStrategy();
        loop.calculateStrategy(NOTHING_READY, false); // its first turn: the loop is now this thread's
        busyPoll.expectCommand();
        return loop;
    }

    @Test
    void aLoopBlocksUntilItHasAnsweredACommandThenPollsWithoutBlocking() throws Exception {
        BusyPoll busyPoll = busyPoll(2);
        SelectStrategy loop = busyPoll.strategies().newSelectStrategy();

        assertEquals(SelectStrategy.SELECT, loop.calculateStrategy(NOTHING_READY, false));
        assertEquals(0, busyPoll.spinners());

        busyPoll.expectCommand();
        assertEquals(0, loop.calculateStrategy(NOTHING_READY, false), "spins: polls and comes back");
        assertEquals(1, busyPoll.spinners());
        assertEquals(3, loop.calculateStrategy(() -> 3, false), "what is ready is handled at once");
    }

    @Test
    void whenTheWindowHasPassedTheLoopBlocksAndGivesItsPlaceBack() throws Exception {
        BusyPoll busyPoll = busyPoll(2);
        SelectStrategy loop = answered(busyPoll);
        clock.addAndGet(WINDOW.toNanos() - 1);
        assertEquals(0, loop.calculateStrategy(NOTHING_READY, false), "still inside the window");
        assertEquals(1, busyPoll.spinners());

        clock.addAndGet(1);
        assertEquals(SelectStrategy.SELECT, loop.calculateStrategy(NOTHING_READY, false));
        assertEquals(0, busyPoll.spinners());
    }

    @Test
    void tasksAreRunAtOnceWithoutBlocking() throws Exception {
        BusyPoll busyPoll = busyPoll(2);
        SelectStrategy loop = busyPoll.strategies().newSelectStrategy();

        assertEquals(0, loop.calculateStrategy(NOTHING_READY, true));
        assertEquals(0, busyPoll.spinners());
    }

    @Test
    void noLoopSpinsWhileTheServerHasMoreSessionsThanSpareCores() throws Exception {
        BusyPoll busyPoll = busyPoll(2); // one spare core
        EmbeddedChannel first = new EmbeddedChannel();
        EmbeddedChannel second = new EmbeddedChannel();
        busyPoll.track(first);
        busyPoll.track(second);
        SelectStrategy loop = answered(busyPoll);
        assertEquals(SelectStrategy.SELECT, loop.calculateStrategy(NOTHING_READY, false));
        assertEquals(0, busyPoll.spinners());

        second.close();
        busyPoll.expectCommand();
        assertEquals(0, loop.calculateStrategy(NOTHING_READY, false), "one session left: spins");
        assertEquals(1, busyPoll.spinners());
        first.close();
    }

    @Test
    void onASingleCoreNoLoopSpins() throws Exception {
        BusyPoll busyPoll = busyPoll(1);
        SelectStrategy loop = answered(busyPoll);

        assertEquals(SelectStrategy.SELECT, loop.calculateStrategy(NOTHING_READY, false));
        assertEquals(0, busyPoll.spinners());
    }

    @Test
    void atMostOneLoopPerSpareCoreSpins() throws Exception {
        BusyPoll busyPoll = busyPoll(2);
        assertEquals(0, answered(busyPoll).calculateStrategy(NOTHING_READY, false));

        // another loop, on another thread, answered a command too
        int[] other = new int[1];
        Thread thread = new Thread(() -> {
            try {
                other[0] = answered(busyPoll).calculateStrategy(NOTHING_READY, false);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        thread.start();
        thread.join();

        assertEquals(SelectStrategy.SELECT, other[0], "the one spare core is taken");
        assertEquals(1, busyPoll.spinners());
    }

    @Test
    void repliesMoreThanTwoWindowsApartShrinkTheWindowAndRepliesCloserRestoreIt() throws Exception {
        BusyPoll busyPoll = busyPoll(2);
        SelectStrategy loop = answered(busyPoll);
        assertEquals(50_000_000, busyPoll.currentWindowNanos());

        clock.addAndGet(2 * WINDOW.toNanos()); // the client takes its time: the next reply comes two windows later
        busyPoll.expectCommand();
        assertEquals(3_125_000, busyPoll.currentWindowNanos(), "a sixteenth");
        clock.addAndGet(3_125_000);
        assertEquals(SelectStrategy.SELECT, loop.calculateStrategy(NOTHING_READY, false), "the short window passed");

        clock.addAndGet(2 * WINDOW.toNanos() - 3_125_001); // just within two windows of the last reply
        busyPoll.expectCommand();
        assertEquals(50_000_000, busyPoll.currentWindowNanos());
        clock.addAndGet(WINDOW.toNanos() - 1);
        assertEquals(0, loop.calculateStrategy(NOTHING_READY, false), "spins the full window");
    }

    @Test
    void aZeroWindowLeavesTheLoopsToNettysDefault() throws Exception {
        BusyPoll busyPoll = new BusyPoll(Duration.ZERO, 2, clock::get);
        assertSame(DefaultSelectStrategyFactory.INSTANCE, busyPoll.strategies());

        busyPoll.expectCommand();
        assertEquals(-1, busyPoll.currentWindowNanos(), "no loop of ours on this thread");
        assertEquals(0, busyPoll.spinners());
    }

    @Test
    void refusesANegativeWindowAndNoCores() {
        assertThrows(IllegalArgumentException.class, () -> new BusyPoll(Duration.ofNanos(-1), 2));
        assertThrows(IllegalArgumentException.class, () -> new BusyPoll(WINDOW, 0));
    }

    @Test
    void expectCommandOffTheLoopsThreadsDoesNothing() {
        BusyPoll busyPoll = busyPoll(2);
        busyPoll.expectCommand();
        assertEquals(-1, busyPoll.currentWindowNanos());
        assertEquals(0, busyPoll.spinners());
    }
}
