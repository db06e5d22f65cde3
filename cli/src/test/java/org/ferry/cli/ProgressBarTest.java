package org.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * What {@code ferry wait}'s bar prints for given polls, on a clock the test sets: the bar, files,
 * bytes, rate, ETA (files left at the rate files finished since the first poll), status and
 * faults, redrawn in place with {@code \r} and blanking what a longer line left.
 */
class ProgressBarTest {

    private static final long SECOND = 1_000_000_000L;

    private final StringWriter printed = new StringWriter();
    private final AtomicLong clock = new AtomicLong(7 * SECOND); // any origin: only differences count
    private final ProgressBar bar = new ProgressBar(new PrintWriter(printed), clock::get);

    @Test
    void eachPollRedrawsTheLineWithBytesRateAndEta() {
        bar.update(new TaskProgress("ACTIVE", "Queued", 0, 0, 0, 0, 0));
        String queued = "[" + "?".repeat(30) + "]  0/0 files  0 B  0 B/s  ACTIVE (Queued)";
        assertThat(printed.toString()).isEqualTo("\r" + queued);

        // the first poll started the ETA's clock: 10 files in 10 s, the 30 left take 30 s
        clock.addAndGet(10 * SECOND);
        bar.update(new TaskProgress("ACTIVE", "OK", 10, 40, 1_572_864, 89_443_533, 0));
        String quarter =
                "[" + "#".repeat(8) + "-".repeat(22) + "]  10/40 files  1.5 MiB  85.3 MiB/s  ETA 30s  ACTIVE (OK)";
        assertThat(printed.toString()).isEqualTo("\r" + queued + "\r" + quarter);

        // 20 files in 60 s since the first poll: the 20 left take 60 s
        clock.addAndGet(50 * SECOND);
        bar.update(new TaskProgress("ACTIVE", "OK", 20, 40, 3L << 30, 100L << 20, 2));
        String half = "[" + "#".repeat(15) + "-".repeat(15)
                + "]  20/40 files  3.0 GiB  100.0 MiB/s  ETA 1m00s  ACTIVE (OK)  2 faults";
        assertThat(printed.toString()).isEqualTo("\r" + queued + "\r" + quarter + "\r" + half);

        // the end: no ETA, no nice status; the shorter line blanks the rest of the longer one
        clock.addAndGet(SECOND);
        bar.update(new TaskProgress("SUCCEEDED", "", 40, 40, 1024, 0, 0));
        String done = "[" + "#".repeat(30) + "]  40/40 files  1.0 KiB  0 B/s  SUCCEEDED";
        assertThat(done.length()).isLessThan(half.length());
        assertThat(printed.toString())
                .isEqualTo("\r" + queued + "\r" + quarter + "\r" + half + "\r" + done
                        + " ".repeat(half.length() - done.length()));

        bar.finish();
        assertThat(printed.toString()).endsWith(System.lineSeparator());
        int length = printed.toString().length();
        bar.finish(); // nothing drawn since: nothing more to close
        assertThat(printed.toString()).hasSize(length);
    }

    @Test
    void aWaitingTaskSaysWhyInsteadOfItsCode() {
        bar.update(new TaskProgress(
                "ACTIVE",
                "CONNECT_FAILED",
                0,
                3,
                0,
                0,
                1,
                "Backing off after CONNECT_FAILED (1 fault): tried again at 2026-11-28T17:00:00+00:00"));
        assertThat(printed.toString())
                .isEqualTo("\r[" + "#".repeat(0) + "-".repeat(30) + "]  0/3 files  0 B  0 B/s  ACTIVE (Backing off"
                        + " after CONNECT_FAILED (1 fault): tried again at 2026-11-28T17:00:00+00:00)  1 faults");
    }

    @Test
    void theEtaCountsFromTheFirstPollAndReadsInHours() {
        bar.update(new TaskProgress("ACTIVE", "OK", 0, 1000, 0, 0, 0));
        clock.addAndGet(100 * SECOND);
        bar.update(new TaskProgress("ACTIVE", "OK", 10, 1000, 10_240, 102, 0));
        // 10 files in 100 s: the 990 left take 9,900 s
        assertThat(printed.toString()).endsWith("]  10/1000 files  10.0 KiB  102 B/s  ETA 2h45m  ACTIVE (OK)");
    }

    @Test
    void noEtaWhileNoFileFinishedSinceTheFirstPoll() {
        bar.update(new TaskProgress("ACTIVE", "CONNECT_FAILED", 5, 10, 500, 0, 1));
        clock.addAndGet(60 * SECOND);
        bar.update(new TaskProgress("ACTIVE", "CONNECT_FAILED", 5, 10, 500, 0, 3));
        String line = "[" + "#".repeat(15) + "-".repeat(15) + "]  5/10 files  500 B  0 B/s  ACTIVE (CONNECT_FAILED)";
        assertThat(printed.toString()).isEqualTo("\r" + line + "  1 faults" + "\r" + line + "  3 faults");
    }

    @Test
    void finishWithoutAnyPollPrintsNothing() {
        bar.finish();
        assertThat(printed.toString()).isEmpty();
    }
}
