package org.ferry.server.pages;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

class BytesLeftTest {

    private final AtomicInteger reads = new AtomicInteger();

    private LongSupplier database(long left) {
        return () -> {
            reads.incrementAndGet();
            return left;
        };
    }

    @Test
    void readsOnceThenEstimatesFromTheBytesMovedSince() {
        BytesLeft left = new BytesLeft();
        Instant start = Instant.parse("2026-11-29T10:00:00Z");
        assertThat(left.get(start, 1_000, database(9_000))).isEqualTo(9_000);
        assertThat(left.get(start.plusSeconds(1), 4_000, database(1))).isEqualTo(6_000);
        assertThat(left.get(start.plusSeconds(9), 12_000, database(1))).isZero(); // never negative
        assertThat(reads).hasValue(1);
    }

    @Test
    void readsAgainWhenTheReadingIsStaleOrTheCountWentBack() {
        BytesLeft left = new BytesLeft();
        Instant start = Instant.parse("2026-11-29T10:00:00Z");
        left.get(start, 1_000, database(9_000));
        assertThat(left.get(start.plus(BytesLeft.REREAD), 2_000, database(7_500)))
                .isEqualTo(7_500);
        // a file started again: the task's count drops, so the estimate would be wrong
        assertThat(left.get(start.plus(BytesLeft.REREAD).plusSeconds(1), 500, database(8_800)))
                .isEqualTo(8_800);
        assertThat(reads).hasValue(3);
    }
}
