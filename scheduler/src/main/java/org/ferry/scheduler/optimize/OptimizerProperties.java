package org.ferry.scheduler.optimize;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Optimizer settings ({@code ferry.optimizer.*}; docs/optimizer.md).
 *
 * @param enabled false: the fixed rules alone tune every chunk, as before the optimizer
 * @param interval how often the optimizer decides per pair (FTS3's OptimizerInterval, 60 s)
 * @param minConcurrency fewest session pairs per pair unless an endpoint's limit says otherwise
 *     (FTS3: 2 on a WAN)
 * @param maxConcurrency most session pairs per pair unless an endpoint's limit says less
 * @param maxParallelism most data connections per file unless an endpoint's limit says less
 *     (FTS3's OptimizerMaxStreams, 16)
 * @param maxStreamsPerPair data connections a pair's files share: each file gets at most this
 *     divided by the pair's session pairs (FTS3 derives streams from connections the same way)
 * @param emaWeight weight of a new throughput sample in the moving average (FTS3: 0.1 at 60 s;
 *     a larger weight follows a change within fewer intervals)
 * @param tolerance relative change of the average that counts as a rise or a fall (0.05: 5 %)
 * @param successThreshold success rate in percent below which the optimizer backs off (FTS3: 97)
 * @param steadyIntervals intervals without change after which the optimizer probes one more
 *     session pair (FTS3's OptimizerSteadyInterval, 300 s, is 5 intervals)
 * @param retention how long decisions are kept: older ones are deleted, at most once an hour
 *     (FTS3 keeps its t_optimizer_evolution a week; a chart of a month needs a month)
 */
@ConfigurationProperties(prefix = "ferry.optimizer")
public record OptimizerProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("60s") Duration interval,
        @DefaultValue("2") int minConcurrency,
        @DefaultValue("32") int maxConcurrency,
        @DefaultValue("16") int maxParallelism,
        @DefaultValue("64") int maxStreamsPerPair,
        @DefaultValue("0.5") double emaWeight,
        @DefaultValue("0.05") double tolerance,
        @DefaultValue("97") double successThreshold,
        @DefaultValue("5") int steadyIntervals,
        @DefaultValue("30d") Duration retention) {

    /** @return the defaults (for tests and tools that build an optimizer without Spring) */
    public static OptimizerProperties defaults() {
        return new OptimizerProperties(
                true, Duration.ofSeconds(60), 2, 32, 16, 64, 0.5, 0.05, 97, 5, Duration.ofDays(30));
    }

    /** @return these settings with another interval */
    public OptimizerProperties withInterval(Duration newInterval) {
        return new OptimizerProperties(
                enabled,
                newInterval,
                minConcurrency,
                maxConcurrency,
                maxParallelism,
                maxStreamsPerPair,
                emaWeight,
                tolerance,
                successThreshold,
                steadyIntervals,
                retention);
    }
}
