package org.ferry.scheduler.notify;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The message's text and HTML parts from a report, and the units it writes figures in. */
class NotificationMessageTest {

    private static TaskReport report(String kind, String label) {
        Instant start = Instant.parse("2026-11-25T01:00:00Z");
        return new TaskReport(
                UUID.fromString("6f1c9a2e-8d0b-4c1e-9f3a-2b7d5e4c1a00"),
                kind,
                "alice",
                "alice@example.org",
                label,
                "alice#lab",
                "alice#hpc",
                List.of("/out -> /in (recursive)"),
                12,
                10,
                2,
                3L << 30,
                start.minusSeconds(5),
                start,
                start.plusSeconds(64),
                start.plus(Duration.ofHours(24)),
                "FAILED".equals(kind) ? "FILE_NOT_FOUND" : null,
                "FAILED".equals(kind)
                        ? "No such file /out/b.h5"
                        : "INACTIVE".equals(kind) ? "alice#lab is not activated." : null,
                "FAILED".equals(kind) ? List.of("/out/b.h5: FILE_NOT_FOUND (gone)") : List.of(),
                "FAILED".equals(kind) ? 7 : 0);
    }

    @Test
    void succeededGivesTheFiguresInBothParts() {
        NotificationMessage message = NotificationMessage.of(report("SUCCEEDED", "nightly <sync>"));
        assertThat(message.subject()).isEqualTo("Ferry: SUCCEEDED: \"nightly <sync>\"");
        assertThat(message.text())
                .contains("nightly <sync>", "6f1c9a2e-8d0b-4c1e-9f3a-2b7d5e4c1a00", "alice#lab", "alice#hpc")
                .contains("/out -> /in (recursive)", "10 transferred, 2 skipped, 12 found")
                .contains("3221225472 (3.00 GiB)", "1m 04s", "48.00 MiB/s")
                .doesNotContain("What to do next", "Error:");
        // the label is escaped in the HTML part
        assertThat(message.html())
                .contains("nightly &lt;sync&gt;", "48.00 MiB/s")
                .doesNotContain("<sync>");
    }

    @Test
    void failedNamesTheErrorTheFilesAndWhatToDo() {
        NotificationMessage message = NotificationMessage.of(report("FAILED", null));
        assertThat(message.subject()).isEqualTo("Ferry: FAILED: task 6f1c9a2e-8d0b-4c1e-9f3a-2b7d5e4c1a00");
        assertThat(message.text())
                .contains("FILE_NOT_FOUND: No such file /out/b.h5", "Files affected (7 failed)")
                .contains("/out/b.h5: FILE_NOT_FOUND (gone)", "... and 6 more", "What to do next", "--sync-level");
        assertThat(message.html()).contains("Files affected (7 failed)", "What to do next");
    }

    @Test
    void inactiveSaysWhichEndpointAndTheDeadline() {
        NotificationMessage message = NotificationMessage.of(report("INACTIVE", "x"));
        assertThat(message.subject()).startsWith("Ferry: INACTIVE");
        assertThat(message.text())
                .contains("alice#lab is not activated.", "ferry endpoint activate", "2026-11-26 01:00:00 UTC");
    }

    @Test
    void unitsAreReadable() {
        assertThat(NotificationMessage.human(512)).isEqualTo("512 B");
        assertThat(NotificationMessage.human(1536)).isEqualTo("1.50 KiB");
        assertThat(NotificationMessage.duration(Duration.ofMillis(1234))).isEqualTo("1.234s");
        assertThat(NotificationMessage.duration(Duration.ofSeconds(3723))).isEqualTo("1h 02m 03s");
    }
}
