package org.ferry.server.pages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.ferry.api.domain.OptimizerDecision;
import org.junit.jupiter.api.Test;

class OptimizerChartTest {

    private static final UUID A = UUID.randomUUID();
    private static final UUID B = UUID.randomUUID();
    private static final Instant T0 = Instant.parse("2026-11-29T06:00:00Z");

    private static OptimizerDecision decision(int seconds, int concurrency, double ema, double successRate) {
        return new OptimizerDecision(
                A, B, T0.plusSeconds(seconds), ema, ema, successRate, 1, 0, 2, concurrency, 8, 2, 32, "why");
    }

    @Test
    void concurrencyIsAStepLineScaledToItsLargestValue() {
        OptimizerChart chart = OptimizerChart.of(
                List.of(decision(0, 2, 1e6, 100), decision(60, 4, 2e6, 100), decision(120, 3, 2e6, 50)), new Formats());

        assertThat(chart.decisions()).isEqualTo(3);
        OptimizerChart.Strip concurrency = chart.strips().get(0);
        assertThat(concurrency.id()).isEqualTo("concurrency");
        assertThat(concurrency.label()).isEqualTo("Session pairs (0 to 4)");
        assertThat(concurrency.latest()).isEqualTo("3");
        int top = concurrency.top();
        int bottom = concurrency.bottom();
        // 2 of 4 at x=6, held until x=320, 4 of 4 (the top), held until x=634, then 3 of 4
        double half = bottom - (bottom - top) / 2.0;
        double quarter = bottom - (bottom - top) * 0.75;
        assertThat(concurrency.points())
                .isEqualTo(String.format(
                        Locale.ROOT,
                        "6.0,%.1f 320.0,%.1f 320.0,%.1f 634.0,%.1f 634.0,%.1f",
                        half,
                        half,
                        (double) top,
                        (double) top,
                        quarter));
        assertThat(concurrency.lastX()).isEqualTo(634.0);

        OptimizerChart.Strip success = chart.strips().get(2);
        assertThat(success.id()).isEqualTo("success-rate");
        assertThat(success.points()).endsWith(String.format(Locale.ROOT, "634.0,%.1f", success.bottom() - 28.0));
        assertThat(chart.strips().get(1).label()).contains("1.9 MiB/s");
    }

    @Test
    void oneDecisionIsAPointAtTheRightEdge() {
        OptimizerChart chart = OptimizerChart.of(List.of(decision(0, 5, 0, 100)), new Formats());

        assertThat(chart.firstTime()).isEqualTo(chart.lastTime());
        OptimizerChart.Strip throughput = chart.strips().get(1);
        assertThat(throughput.points()).isEqualTo("634.0," + throughput.bottom() + ".0");
        assertThat(throughput.latest()).isEqualTo("0 B/s");
    }

    @Test
    void noDecisionIsRefused() {
        assertThatThrownBy(() -> OptimizerChart.of(List.of(), new Formats()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
