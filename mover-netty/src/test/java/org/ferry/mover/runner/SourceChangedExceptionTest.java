package org.ferry.mover.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.ferry.mover.protocol.ByteRange;
import org.ferry.mover.protocol.FileInfo;
import org.junit.jupiter.api.Test;

/** The comparison of a source's facts after a transfer with the file's plan, and the plan after a change. */
class SourceChangedExceptionTest {

    private static final Instant PLANNED = Instant.parse("2026-11-28T10:00:00Z");

    private static final FileTransfer FILE =
            new FileTransfer(7, "/src/a.bin", "/dst/a.bin", 1000, List.of(new ByteRange(0, 500)), 2, PLANNED, "abcd");

    private static FileInfo now(long size, Instant modified) {
        return new FileInfo("a.bin", FileInfo.Type.FILE, size, modified, 0644, "r", "u", "g", null);
    }

    @Test
    void theSameSizeAndTimeAreNoChange() {
        assertThat(SourceChangedException.compare(FILE, now(1000, PLANNED))).isNull();
    }

    @Test
    void anotherSizeIsAChangeEvenWithTheSameTime() {
        SourceChangedException changed = SourceChangedException.compare(FILE, now(1500, PLANNED));
        assertThat(changed).isNotNull();
        assertThat(changed.sizeBytes()).isEqualTo(1500);
        assertThat(changed.getMessage()).contains("/src/a.bin", "1000 bytes", "1500 bytes", PLANNED.toString());
        assertThat(Faults.code(changed)).isEqualTo(FaultCode.FILE_SIZE_CHANGED);
        assertThat(Faults.onSource(changed)).isTrue();
    }

    @Test
    void anotherTimeIsAChangeEvenWithTheSameSize() {
        Instant later = PLANNED.plusSeconds(1);
        SourceChangedException changed = SourceChangedException.compare(FILE, now(1000, later));
        assertThat(changed).isNotNull();
        assertThat(changed.getMessage()).contains(PLANNED.toString(), later.toString());
    }

    @Test
    void aTimeMissingOnEitherSideLeavesTheSizeToDecide() {
        FileTransfer untimed = new FileTransfer(7, "/src/a.bin", "/dst/a.bin", 1000, List.of(), 0, null);
        assertThat(SourceChangedException.compare(untimed, now(1000, PLANNED))).isNull();
        assertThat(SourceChangedException.compare(FILE, now(1000, null))).isNull();
        assertThat(SourceChangedException.compare(untimed, now(999, PLANNED))).isNotNull();
    }

    @Test
    void theFilePlannedAgainIsSentWholeAndCheckedAgainstTheNewFacts() {
        Instant later = PLANNED.plusSeconds(30);
        FileTransfer again =
                SourceChangedException.compare(FILE, now(1500, later)).replan(FILE);
        assertThat(again.id()).isEqualTo(7);
        assertThat(again.sourcePath()).isEqualTo("/src/a.bin");
        assertThat(again.destinationPath()).isEqualTo("/dst/a.bin");
        assertThat(again.sizeBytes()).isEqualTo(1500);
        assertThat(again.sourceModified()).isEqualTo(later);
        assertThat(again.acknowledged())
                .as("the old version's ranges are not resumed")
                .isEmpty();
        assertThat(again.attemptsBefore()).isEqualTo(2);
        assertThat(again.externalChecksum()).isEqualTo("abcd");
        assertThat(SourceChangedException.compare(again, now(1500, later))).isNull();
        assertThat(SourceChangedException.of(FILE, 1500, null).replan(FILE).sourceModified())
                .as("a time the source does not list keeps the planned one")
                .isEqualTo(PLANNED);
    }
}
