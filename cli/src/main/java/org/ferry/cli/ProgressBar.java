package org.ferry.cli;

import java.io.PrintWriter;
import org.ferry.cli.output.Sizes;

/**
 * A progress bar redrawn in place with {@code \r}, for interactive terminals:
 * {@code [########------------]  12/40 files  1.2 GiB  85.3 MiB/s  ACTIVE (OK)}.
 */
public final class ProgressBar implements ProgressView {
    private static final int WIDTH = 30;

    private final PrintWriter err;
    private int lastLength;

    /**
     * Creates the bar.
     *
     * @param err the terminal's error stream
     */
    public ProgressBar(PrintWriter err) {
        this.err = err;
    }

    @Override
    public void update(TaskProgress progress) {
        double fraction = progress.fraction();
        String bar = fraction < 0
                ? "[" + "?".repeat(WIDTH) + "]"
                : "[" + "#".repeat((int) Math.round(fraction * WIDTH))
                        + "-".repeat(WIDTH - (int) Math.round(fraction * WIDTH)) + "]";
        String state = progress.niceStatus().isEmpty()
                ? progress.status()
                : progress.status() + " (" + progress.niceStatus() + ")";
        String line = bar + "  " + progress.filesDone() + "/" + progress.files() + " files  "
                + Sizes.bytes(progress.bytesTransferred()) + "  " + Sizes.rate(progress.bytesPerSecond())
                + "  " + state + (progress.faults() > 0 ? "  " + progress.faults() + " faults" : "");
        // Blank out what is left of a longer previous line.
        int pad = Math.max(0, lastLength - line.length());
        err.print("\r" + line + " ".repeat(pad));
        err.flush();
        lastLength = line.length();
    }

    @Override
    public void finish() {
        if (lastLength > 0) {
            err.println();
            err.flush();
        }
    }
}
