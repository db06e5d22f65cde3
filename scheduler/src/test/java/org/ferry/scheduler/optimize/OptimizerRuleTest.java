package org.ferry.scheduler.optimize;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

/** The decision rule of one interval (docs/optimizer.md), and its course over many against model links. */
class OptimizerRuleTest {

    private static final double MB = 1_000_000;
    private final OptimizerRule rule = new OptimizerRule(OptimizerProperties.defaults());
    private final Range range = new Range(1, 20, 16);

    private static PairSample sample(double bytesPerSecond, int succeeded, int failed) {
        return new PairSample((long) (bytesPerSecond * 60), succeeded, failed, 60);
    }

    @Test
    void theFirstThroughputProbesOneMore() {
        OptimizerRule.Outcome o = rule.decide(PairState.start(4), sample(10 * MB, 10, 0), range);
        assertThat(o.state().concurrency()).isEqualTo(5);
        assertThat(o.state().ema()).isEqualTo(10 * MB);
        assertThat(o.reason()).contains("First throughput");
    }

    @Test
    void aRiseAfterAnIncreaseGoesOnAFallStepsBackAFlatHolds() {
        PairState increased = new PairState(5, 10 * MB, 10 * MB, 1, 0);
        // 12 against 10 before the increase: +20 %; the average is 0.5 * 12 + 0.5 * 10
        OptimizerRule.Outcome rose = rule.decide(increased, sample(12 * MB, 10, 0), range);
        assertThat(rose.state().concurrency()).isEqualTo(6);
        assertThat(rose.reason()).contains("rose 20 %");
        assertThat(rose.state().ema()).isEqualTo(11 * MB);
        OptimizerRule.Outcome fell = rule.decide(increased, sample(6 * MB, 10, 0), range);
        assertThat(fell.state().concurrency()).isEqualTo(4);
        assertThat(fell.reason()).contains("step back");
        // +4 %, within the 5 % tolerance
        OptimizerRule.Outcome flat = rule.decide(increased, sample(10.4 * MB, 10, 0), range);
        assertThat(flat.state().concurrency()).isEqualTo(4);
        assertThat(flat.reason()).contains("capacity reached, step back");
    }

    @Test
    void aSuccessRateBelow97PercentBacksOffEvenWhenThroughputRose() {
        OptimizerRule.Outcome o = rule.decide(new PairState(5, 10 * MB, 10 * MB, 1, 0), sample(20 * MB, 96, 4), range);
        assertThat(o.successRate()).isEqualTo(96.0);
        assertThat(o.state().concurrency()).isEqualTo(4);
        assertThat(o.reason()).contains("96.0 %").contains("below 97 %");
    }

    @Test
    void theLimitsAreNeverCrossed() {
        Range narrow = new Range(2, 3, 4);
        OptimizerRule.Outcome up =
                rule.decide(new PairState(3, 10 * MB, 10 * MB, 1, 0), sample(30 * MB, 10, 0), narrow);
        assertThat(up.state().concurrency()).isEqualTo(3);
        assertThat(up.reason()).contains("hit the upper limit 3");
        OptimizerRule.Outcome down =
                rule.decide(new PairState(2, 10 * MB, 10 * MB, 0, 0), sample(10 * MB, 0, 10), narrow);
        assertThat(down.state().concurrency()).isEqualTo(2);
        assertThat(down.reason()).contains("hit the lower limit 2");
        // a value from before the admin lowered the maximum is brought within it at once
        OptimizerRule.Outcome lowered =
                rule.decide(new PairState(9, 10 * MB, 10 * MB, 0, 0), sample(10 * MB, 10, 0), narrow);
        assertThat(lowered.state().concurrency()).isEqualTo(3);
    }

    @Test
    void aFixedRangeIsKept() {
        OptimizerRule.Outcome o = rule.decide(PairState.start(1), sample(10 * MB, 10, 0), new Range(6, 6, 2));
        assertThat(o.state().concurrency()).isEqualTo(6);
        assertThat(o.reason()).contains("Fixed range");
    }

    @Test
    void anIdleIntervalHoldsAndASteadyPairProbesAfterFiveIntervals() {
        OptimizerRule.Outcome idle = rule.decide(new PairState(4, 10 * MB, 10 * MB, 1, 0), sample(0, 0, 0), range);
        assertThat(idle.state().concurrency()).isEqualTo(4);
        assertThat(idle.reason()).contains("No throughput");
        PairState state = new PairState(4, 10 * MB, 10 * MB, 0, 0);
        List<Integer> values = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            state = rule.decide(state, sample(10 * MB, 10, 0), range).state();
            values.add(state.concurrency());
        }
        assertThat(values).containsExactly(4, 4, 4, 4, 5);
    }

    /**
     * A link whose capacity is 60 MB/s, 10 MB/s per session pair (a server capped with
     * --data-rate-limit): from the fixed rules' start of 2 the optimizer reaches the 6 session pairs
     * that fill it within 6 intervals and stays within one of it (a probe every 5 intervals).
     */
    @Test
    void itConvergesToARateCappedLinksCapacity() {
        List<Integer> course = run(PairState.start(2), 30, c -> Math.min(c, 6) * 10 * MB, c -> 0.0);
        assertThat(course.indexOf(6)).isBetween(1, 6);
        assertThat(course.subList(course.indexOf(6), course.size())).allMatch(c -> c >= 6 && c <= 7);
        assertThat(course.stream().filter(c -> c == 7).count()).isLessThanOrEqualTo(course.size() / 5);
    }

    /**
     * A server that refuses logins beyond 5 sessions with 421: the sixth session pair's files fail
     * (a share of 1/6 of the attempts), the success rate drops below 97 % and the optimizer backs
     * off to 5; it never stays above the capacity for two intervals in a row.
     */
    @Test
    void itBacksOffFromAServerThatRefusesSessionsBeyondItsLimit() {
        List<Integer> course =
                run(PairState.start(2), 30, c -> Math.min(c, 5) * 10 * MB, c -> c > 5 ? (c - 5.0) / c : 0);
        assertThat(course.indexOf(5)).isBetween(1, 5);
        for (int i = 1; i < course.size(); i++) {
            assertThat(course.get(i - 1) > 5 && course.get(i) > 5)
                    .as("above 5 twice in a row at %d: %s", i, course)
                    .isFalse();
        }
        assertThat(course.subList(course.indexOf(5), course.size())).allMatch(c -> c >= 4 && c <= 6);
    }

    @Test
    void aShareOfFailuresDrivesItDownToTheMinimum() {
        List<Integer> course = run(new PairState(8, 0, 0, 0, 0), 10, c -> c * 10 * MB, c -> 0.1);
        assertThat(course).startsWith(7, 6, 5, 4, 3, 2, 1);
        assertThat(course.get(course.size() - 1)).isEqualTo(range.min());
    }

    /** @return the concurrency after each of n intervals on a model link */
    private List<Integer> run(
            PairState start, int intervals, IntToDoubleFunction throughput, IntToDoubleFunction failedShare) {
        PairState state = start;
        List<Integer> course = new ArrayList<>();
        for (int i = 0; i < intervals; i++) {
            int c = state.concurrency();
            int attempts = 100;
            int failed = (int) Math.round(attempts * failedShare.applyAsDouble(c));
            state = rule.decide(state, sample(throughput.applyAsDouble(c), attempts - failed, failed), range)
                    .state();
            course.add(state.concurrency());
        }
        return course;
    }
}
