package org.ferry.server.pages;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class LiveRateTest {

    private static final Instant T0 = Instant.parse("2026-11-29T06:00:00Z");

    @Test
    void theRateIsTheBytesOfTheLastSecondsNotTheAverageSinceTheStart() {
        LiveRate rate = new LiveRate();
        assertThat(rate.bytesPerSecond()).isEmpty();
        rate.add(T0, 0);
        rate.add(T0.plusMillis(100), 0);
        assertThat(rate.bytesPerSecond()).as("100 ms say nothing").isEmpty();
        assertThat(rate.secondsLeft(1000)).isEmpty();
        // 10 s at 1 MB/s, then 10 s at 4 MB/s, one read a second
        long bytes = 0;
        for (int s = 1; s <= 20; s++) {
            bytes += s <= 10 ? 1_000_000 : 4_000_000;
            rate.add(T0.plusSeconds(s), bytes);
        }
        assertThat(rate.bytesPerSecond()).hasValue(4_000_000.0);
        assertThat(rate.secondsLeft(10_000_001)).hasValue(3);
    }

    @Test
    void aStandstillIsZeroAndHasNoTimeLeft() {
        LiveRate rate = new LiveRate();
        for (int s = 0; s <= 10; s++) {
            rate.add(T0.plusSeconds(s), 5_000);
        }
        assertThat(rate.bytesPerSecond()).hasValue(0.0);
        assertThat(rate.secondsLeft(1)).isEmpty();
    }

    @Test
    void fewerBytesThanBeforeStartAnewMeasurement() {
        LiveRate rate = new LiveRate();
        rate.add(T0, 0);
        rate.add(T0.plusSeconds(1), 8_000_000);
        rate.add(T0.plusSeconds(2), 1_000);
        assertThat(rate.bytesPerSecond()).isEmpty();
        rate.add(T0.plusSeconds(3), 2_001_000);
        assertThat(rate.bytesPerSecond()).hasValue(2_000_000.0);
    }
}
