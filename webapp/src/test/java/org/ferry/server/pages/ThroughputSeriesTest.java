package org.ferry.server.pages;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class ThroughputSeriesTest {

    private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

    private static String bytes(long n) {
        return "{\"bytes_transferred\":" + n + ",\"files_transferred\":1}";
    }

    @Test
    void ratesAreTheBytesBetweenSamplesOverTheSecondsBetweenThem() {
        ThroughputSeries series = new ThroughputSeries();
        assertThat(series.add("STARTED", T0, null)).contains(new ThroughputSeries.Point(T0.getEpochSecond(), 0, 0));
        assertThat(series.add("PROGRESS", T0.plusSeconds(2), bytes(4_000_000)))
                .contains(new ThroughputSeries.Point(T0.getEpochSecond() + 2, 2_000_000, 4_000_000));
        assertThat(series.add("FILE_NOT_FOUND", T0.plusSeconds(3), "550 no such file"))
                .isEmpty();
        assertThat(series.add("SUCCEEDED", T0.plusMillis(6500), bytes(13_000_000)))
                .contains(new ThroughputSeries.Point(T0.getEpochSecond() + 6.5, 2_000_000, 13_000_000));
    }

    @Test
    void aSecondStartIsNoNewOriginAndFewerBytesGiveZero() {
        ThroughputSeries series = new ThroughputSeries();
        series.add("STARTED", T0, null);
        series.add("PROGRESS", T0.plusSeconds(1), bytes(1000));
        assertThat(series.add("STARTED", T0.plusSeconds(5), null)).isEmpty();
        // a restarted task whose counters went back (a file re-sent from its start)
        assertThat(series.add("PROGRESS", T0.plusSeconds(6), bytes(500)))
                .contains(new ThroughputSeries.Point(T0.getEpochSecond() + 6, 0, 500));
    }

    @Test
    void eventsWithoutCountersOrAtTheSameInstantGiveNoPoint() {
        ThroughputSeries series = new ThroughputSeries();
        assertThat(series.add("PROGRESS", T0, bytes(10))).as("no origin yet").isEmpty();
        assertThat(series.add("PROGRESS", T0, bytes(20))).as("no time between").isEmpty();
        assertThat(series.add("PROGRESS", T0.plusSeconds(1), "{}")).isEmpty();
        assertThat(series.add("PROGRESS", T0.plusSeconds(2), bytes(30)))
                .contains(new ThroughputSeries.Point(T0.getEpochSecond() + 2, 5, 30));
    }
}
