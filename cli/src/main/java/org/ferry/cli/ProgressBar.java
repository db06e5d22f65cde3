package org.ferry.cli;

import java.io.PrintWriter;
import java.util.function.LongSupplier;
import org.ferry.cli.output.Sizes;

/**
 * A progress bar redrawn in place with {@code \r}, for interactive terminals:
 * {@code [########------------]  12/40 files  1.2 GiB  85.3 MiB/s  ETA 3m12s  ACTIVE (OK)}.
 * The ETA is the files left at the rate files finished since the bar first saw the task
 * (the API does not know a task's total bytes before the crawl ends).
 */
public final class ProgressBar implements ProgressView {
    private static final int WIDTH = 30;

    private final PrintWriter err;
    private final LongSupplier nanoClock;
    private int lastLength;
    private long firstNanos = -1;
    private long firstFilesDone;

    /**
     * Creates the bar.
     *
     * @param err the terminal's error stream
     * @param nanoClock a monotonic clock in nanoseconds, such as {@link System#nanoTime()}
     */
    public ProgressBar(PrintWriter err, LongSupplier nanoClock) {
        this.err = err;
        this.nanoClock = nanoClock;
    }

    @Override
    public void update(TaskProgress progress) {
        long now = nanoClock.getAsLong();
        if (firstNanos < 0) {
            firstNanos = now;
            firstFilesDone = progress.filesDone();
        }
        double fraction = progress.fraction();
        String bar = fraction < 0
                ? "[" + "?".repeat(WIDTH) + "]"
                : "[" + "#".repeat((int) Math.round(fraction * WIDTH))
                        + "-".repeat(WIDTH - (int) Math.round(fraction * WIDTH)) + "]";
        // a waiting task says why (its limit, or its back-off's fault and end) instead of a code
        String state = progress.niceStatus().isEmpty()
                ? progress.status()
                : progress.status() + " ("
                        + (progress.niceStatusDetails().isEmpty()
                                ? progress.niceStatus()
                                : progress.niceStatusDetails())
                        + ")";
        String line = bar + "  " + progress.filesDone() + "/" + progress.files() + " files  "
                + Sizes.bytes(progress.bytesTransferred()) + "  " + Sizes.rate(progress.bytesPerSecond())
                + eta(progress, now) + "  " + state
                + (progress.faults() > 0 ? "  " + progress.faults() + " faults" : "");
        // Blank out what is left of a longer previous line.
        int pad = Math.max(0, lastLength - line.length());
        err.print("\r" + line + " ".repeat(pad));
        err.flush();
        lastLength = line.length();
    }

    private String eta(TaskProgress progress, long now) {
        long done = progress.filesDone() - firstFilesDone;
        long left = progress.files() - progress.filesDone();
        if (done <= 0 || left <= 0 || progress.files() <= 0) {
            return "";
        }
        long seconds = (long) ((now - firstNanos) / 1e9 * left / done);
        return "  ETA " + Sizes.duration(seconds);
    }

    @Override
    public void finish() {
        if (lastLength > 0) {
            err.println();
            err.flush();
            lastLength = 0;
        }
    }
}
