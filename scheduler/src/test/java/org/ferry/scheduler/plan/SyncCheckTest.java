package org.ferry.scheduler.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Instant;
import org.ferry.api.domain.SyncLevel;
import org.ferry.mover.protocol.FileInfo;
import org.junit.jupiter.api.Test;

class SyncCheckTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static FileInfo file(long size, Instant modified) {
        return new FileInfo("f", FileInfo.Type.FILE, size, modified, 0644);
    }

    @Test
    void noSyncLevelAlwaysCopies() throws IOException {
        assertThat(SyncCheck.needsCopy(null, file(1, T0), file(1, T0), () -> true))
                .isTrue();
    }

    @Test
    void absentDestinationIsCopiedAtEveryLevel() throws IOException {
        for (SyncLevel level : SyncLevel.values()) {
            assertThat(SyncCheck.needsCopy(level, file(1, T0), null, () -> true))
                    .isTrue();
        }
    }

    @Test
    void levelsCompareWhatTheyName() throws IOException {
        assertThat(SyncCheck.needsCopy(SyncLevel.EXISTS, file(1, T0), file(2, T0), () -> false))
                .isFalse();
        assertThat(SyncCheck.needsCopy(SyncLevel.SIZE, file(1, T0), file(2, T0), () -> true))
                .isTrue();
        assertThat(SyncCheck.needsCopy(SyncLevel.SIZE, file(2, T0.plusSeconds(9)), file(2, T0), () -> false))
                .isFalse();
        assertThat(SyncCheck.needsCopy(SyncLevel.MTIME, file(2, T0.plusSeconds(1)), file(2, T0), () -> true))
                .isTrue();
        // an older source is not copied
        assertThat(SyncCheck.needsCopy(SyncLevel.MTIME, file(2, T0), file(2, T0.plusSeconds(1)), () -> true))
                .isFalse();
        // a preserved time is set in whole seconds (MFMT): a source's fraction does not make it newer
        assertThat(SyncCheck.needsCopy(SyncLevel.MTIME, file(2, T0.plusMillis(999)), file(2, T0), () -> true))
                .isFalse();
        assertThat(SyncCheck.needsCopy(SyncLevel.MTIME, file(2, T0.plusMillis(1000)), file(2, T0), () -> true))
                .isTrue();
        assertThat(SyncCheck.needsCopy(SyncLevel.CHECKSUM, file(2, T0), file(2, T0), () -> true))
                .isFalse();
        assertThat(SyncCheck.needsCopy(SyncLevel.CHECKSUM, file(2, T0), file(2, T0), () -> false))
                .isTrue();
        assertThat(SyncCheck.needsCopy(SyncLevel.CHECKSUM, file(2, T0), file(3, T0), () -> {
                    throw new AssertionError("sizes differ: no checksum needed");
                }))
                .isTrue();
    }
}
