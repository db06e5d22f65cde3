package org.ferry.mover.server.listing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Random;
import org.ferry.mover.protocol.FileInfo;
import org.ferry.mover.storage.FileStat;
import org.junit.jupiter.api.Test;

/** MLSx fact lines (RFC 3659 section 7): the time and mode facts as the formatters of the JDK print them. */
class MlsxFormatterTest {

    @Test
    void timesAndModesAreThoseOfTheJdkFormatters() {
        Random random = new Random(3659);
        for (int i = 0; i < 10_000; i++) {
            // 1000-01-01 .. 9999-12-31, nanoseconds included (truncated, not rounded)
            long seconds = -30_610_224_000L + (long) (random.nextDouble() * 284_012_870_399L);
            Instant modified = Instant.ofEpochSecond(seconds, random.nextInt(1_000_000_000));
            int mode = random.nextInt(010000);
            FileStat stat = new FileStat("f", FileInfo.Type.FILE, 12, modified, mode, true, false, "u", "g");
            assertThat(MlsxFormatter.line(stat, "f"))
                    .isEqualTo("Type=file;Size=12;Modify="
                            + MlsxFormatter.TIME.format(modified.truncatedTo(ChronoUnit.SECONDS))
                            + ";Perm=r;UNIX.mode=" + String.format("%04o", mode) + "; f");
        }
    }

    @Test
    void directoriesAndUnknownModes() {
        FileStat dir = new FileStat(
                "d", FileInfo.Type.DIRECTORY, 0, Instant.parse("2026-11-22T10:15:30Z"), -1, true, true, "u", "g");
        assertThat(MlsxFormatter.line(dir, "d")).isEqualTo("Type=dir;Size=0;Modify=20261122101530;Perm=cfmpdel; d");
    }
}
