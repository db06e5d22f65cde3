package org.ferry.mover.runner;

import java.util.List;

/**
 * How often a file is tried and how long to wait between tries.
 *
 * @param maxAttempts attempts per file, at least 1
 * @param backoffSeconds wait before attempt 2, 3, ...; the last value repeats; empty: no wait
 */
public record RetryPolicy(int maxAttempts, List<Integer> backoffSeconds) {

    /** @throws IllegalArgumentException if {@code maxAttempts} is below 1 */
    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1: " + maxAttempts);
        }
        backoffSeconds = List.copyOf(backoffSeconds);
    }

    /**
     * @param failedAttempt 1 after the first failure
     * @return seconds to wait before the next attempt
     */
    public long backoffSeconds(int failedAttempt) {
        if (backoffSeconds.isEmpty()) {
            return 0;
        }
        return backoffSeconds.get(Math.min(failedAttempt, backoffSeconds.size()) - 1);
    }
}
