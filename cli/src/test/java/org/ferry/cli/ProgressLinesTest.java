package org.ferry.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * What {@code ferry wait} prints for logs and pipes, on a clock the test sets: a line at the
 * first poll and at every change of status, otherwise at most one per interval.
 */
class ProgressLinesTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void aLineAtTheFirstPollAtEachChangeOfStatusAndOtherwiseOncePerInterval() {
        StringWriter printed = new StringWriter();
        AtomicLong clock = new AtomicLong(-3 * SECOND); // System.nanoTime() may be negative
        ProgressLines lines = new ProgressLines(new PrintWriter(printed), Duration.ofSeconds(5), clock::get);

        lines.update(new TaskProgress("ACTIVE", "Queued", 0, 0, 0, 0, 0));
        clock.addAndGet(SECOND); // status changes: printed at once
        lines.update(new TaskProgress("ACTIVE", "OK", 1, 4, 2048, 1024, 0));
        clock.addAndGet(SECOND); // same status 1 s later: not printed
        lines.update(new TaskProgress("ACTIVE", "OK", 2, 4, 4096, 1024, 0));
        clock.addAndGet(4 * SECOND); // 5 s after the last line: printed
        lines.update(new TaskProgress("ACTIVE", "OK", 3, 4, 6144, 1024, 1));
        clock.addAndGet(SECOND / 2);
        lines.update(new TaskProgress("SUCCEEDED", "", 4, 4, 8192, 1024, 1));
        lines.finish();

        assertThat(printed.toString().lines())
                .containsExactly(
                        "ACTIVE (Queued): 0/0 files, 0 B, 0 B/s, 0 faults",
                        "ACTIVE (OK): 1/4 files, 2.0 KiB, 1.0 KiB/s, 0 faults",
                        "ACTIVE (OK): 3/4 files, 6.0 KiB, 1.0 KiB/s, 1 faults",
                        "SUCCEEDED: 4/4 files, 8.0 KiB, 1.0 KiB/s, 1 faults");
        assertThat(printed.toString()).doesNotContain("\r");
    }

    @Test
    void aTaskReadFromItsDocumentCountsSkippedFilesAsDone() {
        TaskProgress progress = TaskProgress.of(tools.jackson.databind.json.JsonMapper.builder()
                .build()
                .readTree("{\"status\":\"ACTIVE\",\"nice_status\":null,\"files\":10,\"files_transferred\":3,"
                        + "\"files_skipped\":4,\"bytes_transferred\":1536,\"effective_bytes_per_second\":512,"
                        + "\"faults\":2}"));
        assertThat(progress.summary()).isEqualTo("ACTIVE: 7/10 files, 1.5 KiB, 512 B/s, 2 faults");
        assertThat(progress.fraction()).isEqualTo(0.7);
        assertThat(progress.ended()).isFalse();
    }
}
