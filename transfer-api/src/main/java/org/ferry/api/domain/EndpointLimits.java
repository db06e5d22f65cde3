package org.ferry.api.domain;

/**
 * An admin's optimizer limits of one endpoint (docs/optimizer.md "Limits"); a null field takes the
 * {@code ferry.optimizer.*} default. A pair's range is the tighter of its two endpoints' limits.
 *
 * @param minConcurrency fewest session pairs the optimizer keeps between this endpoint and another
 * @param maxConcurrency most session pairs at once between this endpoint and another, never exceeded
 * @param maxParallelism most data connections per file to or from this endpoint
 */
public record EndpointLimits(Integer minConcurrency, Integer maxConcurrency, Integer maxParallelism) {

    /** No limits of its own: the defaults apply. */
    public static final EndpointLimits NONE = new EndpointLimits(null, null, null);
}
