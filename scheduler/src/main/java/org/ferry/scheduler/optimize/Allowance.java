package org.ferry.scheduler.optimize;

/**
 * What the dispatcher may give an endpoint pair now.
 *
 * @param concurrency session pairs of the pair in flight at once, across all tasks and users
 * @param parallelism most data connections per file
 */
public record Allowance(int concurrency, int parallelism) {

    /** No optimizer: the fixed rules alone. */
    public static final Allowance UNLIMITED = new Allowance(Integer.MAX_VALUE, Integer.MAX_VALUE);
}
