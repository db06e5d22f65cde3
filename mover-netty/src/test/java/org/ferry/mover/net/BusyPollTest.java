package org.ferry.mover.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.channel.SelectStrategy;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.IntSupplier;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The decisions of {@link BusyPoll}'s per-loop strategy, taken on the test thread as an event loop
 * takes them on its own: Netty calls {@code calculateStrategy} with a non-blocking poll before each
 * turn, and a negative answer (SELECT) makes the loop block. The poll here reports what the test
 * says is ready.
 */
class BusyPollTest {

    private static final Duration LONG = Duration.ofHours(1);
    private static final IntSupplier NOTHING_READY = () -> 0;

    @Test
    void aLoopBlocksUntilItHasAnsweredACommandThenPollsWithoutBlocking() throws Exception {
        BusyPoll busyPoll = new BusyPoll(LONG, 2);
        SelectStrategy loop = busyPoll.strategies().newSelectStrategy();

        assertEquals(SelectStrategy.SELECT, loop.calculateStrategy(NOTHING_READY, false));
        assertEquals(0, busyPoll.spinners());

        busyPoll.expectCommand();
        assertEquals(0, loop.calculateStrategy(NOTHING_READY, false), "spins: polls and comes back");
        assertEquals(1, busyPoll.spinners());
        assertEquals(3, loop.calculateStrategy(() -> 3, false), "what is ready is handled at once");
    }

    @Test
    void tasksAreRunAtOnceWithoutBlocking() throws Exception {
        BusyPoll busyPoll = new BusyPoll(LONG, 2);
        SelectStrategy loop = busyPoll.strategies().newSelectStrategy();

        assertEquals(0, loop.calculateStrategy(NOTHING_READY, true));
        assertEquals(0, busyPoll.spinners());
    }

    @Test
    void noLoopSpinsWhileTheServerHasMoreSessionsThanSpareCores() throws Exception {
        BusyPoll busyPoll = new BusyPoll(LONG, 2); // one spare core
        EmbeddedChannel first = new EmbeddedChannel();
        EmbeddedChannel second = new EmbeddedChannel();
        busyPoll.track(first);
        busyPoll.track(second);
        SelectStrategy loop = busyPoll.strategies().newSelectStrategy();
        loop.calculateStrategy(NOTHING_READY, false);

        busyPoll.expectCommand();
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
        BusyPoll busyPoll = new BusyPoll(LONG, 1);
        SelectStrategy loop = busyPoll.strategies().newSelectStrategy();
        loop.calculateStrategy(NOTHING_READY, false);

        busyPoll.expectCommand();
        assertEquals(SelectStrategy.SELECT, loop.calculateStrategy(NOTHING_READY, false));
        assertEquals(0, busyPoll.spinners());
    }

    @Test
    void atMostOneLoopPerSpareCoreSpins() throws Exception {
        BusyPoll busyPoll = new BusyPoll(LONG, 2);
        SelectStrategy spinning = busyPoll.strategies().newSelectStrategy();
        spinning.calculateStrategy(NOTHING_READY, false);
        busyPoll.expectCommand();
        assertEquals(0, spinning.calculateStrategy(NOTHING_READY, false));

        // another loop, on another thread, answered a command too
        int[] other = new int[1];
        Thread thread = new Thread(() -> {
            try {
                SelectStrategy loop = busyPoll.strategies().newSelectStrategy();
                loop.calculateStrategy(NOTHING_READY, false);
                busyPoll.expectCommand();
                other[0] = loop.calculateStrategy(NOTHING_READY, false);
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
        BusyPoll busyPoll = new BusyPoll(Duration.ofMillis(50), 2);
        SelectStrategy loop = busyPoll.strategies().newSelectStrategy();
        loop.calculateStrategy(NOTHING_READY, false);
        assertEquals(50_000_000, busyPoll.currentWindowNanos());

        startSpinning(busyPoll, loop, NOTHING_READY);
        blockAfterTheWindow(loop);
        assertEquals(0, busyPoll.spinners(), "a blocked loop gives its place back");
        Thread.sleep(100); // the client takes its time: this reply comes more than two windows later
        busyPoll.expectCommand();
        assertEquals(3_125_000, busyPoll.currentWindowNanos(), "a sixteenth");

        busyPoll.expectCommand(); // back to back
        assertEquals(50_000_000, busyPoll.currentWindowNanos());
        assertEquals(0, loop.calculateStrategy(NOTHING_READY, false), "spins the full window");
    }

    /** Turns the loop until its window has passed and it blocks: nanoTime moves on, on any machine. */
    private static void blockAfterTheWindow(SelectStrategy loop) throws Exception {
        while (loop.calculateStrategy(NOTHING_READY, false) != SelectStrategy.SELECT) {
            Thread.onSpinWait();
        }
    }

    /**
     * Opens a window and takes the loop's first turn in it; opens it again should the window pass
     * before that turn (a thread descheduled in between on a loaded machine).
     *
     * @return what the turn polled
     */
    private static int startSpinning(BusyPoll busyPoll, SelectStrategy loop, IntSupplier poll) throws Exception {
        while (true) {
            busyPoll.expectCommand();
            int turn = loop.calculateStrategy(poll, false);
            if (turn != SelectStrategy.SELECT) {
                return turn;
            }
        }
    }

    @Test
    void refusesAWindowThatIsNotPositiveAndNoCores() {
        assertThrows(IllegalArgumentException.class, () -> new BusyPoll(Duration.ZERO, 2));
        assertThrows(IllegalArgumentException.class, () -> new BusyPoll(Duration.ofNanos(-1), 2));
        assertThrows(IllegalArgumentException.class, () -> new BusyPoll(LONG, 0));
    }

    @Test
    void expectCommandOffTheLoopsThreadsDoesNothing() {
        BusyPoll busyPoll = new BusyPoll(LONG, 2);
        busyPoll.expectCommand();
        assertEquals(-1, busyPoll.currentWindowNanos());
        assertEquals(0, busyPoll.spinners());
    }
}
