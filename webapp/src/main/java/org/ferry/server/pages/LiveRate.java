package org.ferry.server.pages;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * A running task's current rate, from the byte counts a live view reads of it (about one a
 * second while data moves, as the movers report bytes in flight): the bytes moved over the last
 * {@value #WINDOW_SECONDS} seconds of samples, not the average since the start, so a task that
 * waited or sped up shows what it does now. Not thread-safe: one per reader, used under its lock.
 */
public final class LiveRate {

    /** Seconds of samples the rate is taken over. */
    static final int WINDOW_SECONDS = 5;

    /** A rate needs samples this far apart (two reads of one change say nothing). */
    static final Duration SHORTEST_SPAN = Duration.ofMillis(500);

    private final Deque<Sample> samples = new ArrayDeque<>();

    private record Sample(Instant time, long bytes) {}

    /**
     * @param time when the count was read
     * @param bytes the task's bytes moved so far (arrived and in flight)
     */
    public void add(Instant time, long bytes) {
        if (!samples.isEmpty() && bytes < samples.peekLast().bytes()) {
            samples.clear(); // a file started again counts less: measure anew
        }
        samples.addLast(new Sample(time, bytes));
        Instant oldest = time.minusSeconds(WINDOW_SECONDS);
        // keep one sample at or before the window's start, so the window is covered whole
        while (samples.size() > 2) {
            Sample second = samples.stream().skip(1).findFirst().orElseThrow();
            if (second.time().isAfter(oldest)) {
                break;
            }
            samples.removeFirst();
        }
    }

    /** @return bytes per second over the window, empty until samples span {@link #SHORTEST_SPAN} */
    public OptionalDouble bytesPerSecond() {
        if (samples.size() < 2) {
            return OptionalDouble.empty();
        }
        Sample first = samples.peekFirst();
        Sample last = samples.peekLast();
        Duration span = Duration.between(first.time(), last.time());
        if (span.compareTo(SHORTEST_SPAN) < 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of((last.bytes() - first.bytes()) * 1000.0 / span.toMillis());
    }

    /**
     * @param bytesLeft bytes still to move
     * @return whole seconds until they have moved at the current rate; empty without a rate above 0
     */
    public OptionalLong secondsLeft(long bytesLeft) {
        OptionalDouble rate = bytesPerSecond();
        if (rate.isEmpty() || rate.getAsDouble() <= 0) {
            return OptionalLong.empty();
        }
        return OptionalLong.of((long) Math.ceil(Math.max(0, bytesLeft) / rate.getAsDouble()));
    }
}
