package org.ferry.api.domain;

import java.time.Instant;
import java.util.UUID;

/**
 * One decision of the optimizer for a (source, destination) endpoint pair, with its inputs (FTS3's
 * {@code t_optimizer_evolution}; docs/optimizer.md).
 *
 * @param sourceEndpointId the pair's source endpoint
 * @param destinationEndpointId the pair's destination endpoint
 * @param time when it was decided
 * @param throughputSample bytes per second that arrived over the pair in the interval just ended
 * @param throughputEma the exponential moving average of the samples, bytes per second
 * @param successRate percent of the interval's finished files that succeeded (100 when none ended)
 * @param filesSucceeded files that arrived in the interval
 * @param filesFailed transient faults (and chunks stopped by one) in the interval
 * @param previousConcurrency session pairs allowed before
 * @param concurrency session pairs allowed from now on, across all tasks and users
 * @param parallelism data connections per file from now on
 * @param minConcurrency the range's lower end (the endpoints' limits or the default)
 * @param maxConcurrency the range's upper end, never exceeded
 * @param reason why, for people
 */
public record OptimizerDecision(
        UUID sourceEndpointId,
        UUID destinationEndpointId,
        Instant time,
        double throughputSample,
        double throughputEma,
        double successRate,
        int filesSucceeded,
        int filesFailed,
        int previousConcurrency,
        int concurrency,
        int parallelism,
        int minConcurrency,
        int maxConcurrency,
        String reason) {}
