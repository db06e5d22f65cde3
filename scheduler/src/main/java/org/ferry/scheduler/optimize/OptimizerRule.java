package org.ferry.scheduler.optimize;

import java.util.Locale;

/**
 * The decision rule of one interval for one endpoint pair, FTS3's (reference/service-semantics.md
 * b.10) in a simpler form: a pure function of the pair's state, the interval's sample and the
 * range, so that its tests need no clock and no database.
 *
 * <ol>
 *   <li>the moving average: {@code ema = w * sample + (1 - w) * ema} for a sample above 0 (the
 *       first sample is taken as it is);
 *   <li>success rate below the threshold (97 %): one session pair fewer;
 *   <li>nothing measured yet, or an idle interval: hold;
 *   <li>after an increase: the interval's throughput rose above the interval's before by more than
 *       the tolerance, one more; otherwise step back by one (it fell, or stayed: the capacity is
 *       reached and the extra session pair bought nothing). The two intervals' own throughputs are
 *       compared, not the average: the average lags a step behind, which made the rule overshoot
 *       the capacity by one in its tests;
 *   <li>the first throughput ever measured: one more (probe);
 *   <li>after a decrease or a hold: hold, until {@code steadyIntervals} in a row, then probe one more;
 *   <li>the result is clamped to the range (the admin's maximum is never exceeded).
 * </ol>
 */
public final class OptimizerRule {

    private final OptimizerProperties settings;

    /** @param settings weight, tolerance, threshold and steady intervals */
    public OptimizerRule(OptimizerProperties settings) {
        this.settings = settings;
    }

    /**
     * What the rule decided.
     *
     * @param state the pair's new state
     * @param successRate the interval's success rate, percent
     * @param reason why, for people
     */
    public record Outcome(PairState state, double successRate, String reason) {}

    /**
     * @param state the pair's state before
     * @param sample the interval just ended
     * @param range the pair's range
     * @return the new state and why
     */
    public Outcome decide(PairState state, PairSample sample, Range range) {
        double throughput = sample.throughput();
        double ema = state.ema();
        if (throughput > 0) {
            ema = ema == 0 ? throughput : settings.emaWeight() * throughput + (1 - settings.emaWeight()) * ema;
        }
        double success = sample.successRate();
        int current = range.clamp(state.concurrency());
        int step;
        String reason;
        if (range.min() == range.max()) {
            step = 0;
            reason = "Fixed range: " + range.min() + " session pairs";
        } else if (success < settings.successThreshold()) {
            step = -1;
            reason = String.format(
                    Locale.ROOT,
                    "Success rate %.1f %% is below %.0f %%: one session pair fewer",
                    success,
                    settings.successThreshold());
        } else if (ema == 0 || sample.idle()) {
            step = 0;
            reason = "No throughput measured in the interval: hold";
        } else if (state.lastStep() > 0 && state.lastSample() > 0) {
            double change = (throughput - state.lastSample()) / state.lastSample();
            if (change > settings.tolerance()) {
                step = 1;
                reason = String.format(
                        Locale.ROOT, "Throughput rose %.0f %% with the last increase: one more", 100 * change);
            } else if (change < -settings.tolerance()) {
                step = -1;
                reason = String.format(
                        Locale.ROOT, "Throughput fell %.0f %% after the last increase: step back", -100 * change);
            } else {
                // the extra session pair bought nothing: give it back (else every probe would stay)
                step = -1;
                reason = String.format(
                        Locale.ROOT,
                        "Throughput changed %+.0f %% with the last increase: capacity reached, step back",
                        100 * change);
            }
        } else if (state.ema() == 0) {
            step = 1;
            reason = "First throughput measured: probe one more";
        } else if (state.steady() + 1 >= settings.steadyIntervals()) {
            step = 1;
            reason = "Steady for " + (state.steady() + 1) + " intervals: probe one more";
        } else {
            step = 0;
            reason = "Steady: hold";
        }
        int next = range.clamp(current + step);
        if (next == current && step > 0) {
            reason += " (hit the upper limit " + range.max() + ")";
        } else if (next == current && step < 0) {
            reason += " (hit the lower limit " + range.min() + ")";
        }
        int taken = Integer.signum(next - current);
        // a probe that hit the upper limit starts the steady count again, so the next probe waits
        int steady = taken == 0 ? (step > 0 ? 0 : state.steady() + 1) : 0;
        double lastSample = sample.idle() ? state.lastSample() : throughput;
        return new Outcome(new PairState(next, ema, lastSample, taken, steady), success, reason);
    }
}
