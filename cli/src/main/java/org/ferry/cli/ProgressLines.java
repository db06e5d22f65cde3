package org.ferry.cli;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Plain progress lines for logs and pipes (no {@code \r}): the first poll, every change of
 * status, and otherwise at most one line per interval, e.g.
 * {@code ACTIVE (OK): 12/40 files, 1.2 GiB, 85.3 MiB/s, 0 faults}.
 */
public final class ProgressLines implements ProgressView {
    private final PrintWriter err;
    private final long minIntervalNanos;
    private final LongSupplier nanoClock;
    private long lastPrintNanos;
    private String lastState;

    /**
     * Creates the view.
     *
     * @param err where the lines go
     * @param minInterval the least time between two lines of the same status
     * @param nanoClock a monotonic clock in nanoseconds, such as {@link System#nanoTime()}
     */
    public ProgressLines(PrintWriter err, Duration minInterval, LongSupplier nanoClock) {
        this.err = err;
        this.minIntervalNanos = minInterval.toNanos();
        this.nanoClock = nanoClock;
    }

    @Override
    public void update(TaskProgress progress) {
        long now = nanoClock.getAsLong();
        String state = progress.status() + "/" + progress.niceStatus();
        boolean due = lastState == null || !state.equals(lastState) || now - lastPrintNanos >= minIntervalNanos;
        if (due) {
            err.println(progress.summary());
            err.flush();
            lastPrintNanos = now;
            lastState = state;
        }
    }

    @Override
    public void finish() {
        // Nothing drawn in place: nothing to close.
    }
}
