package org.ferry.scheduler.optimize;

/**
 * The session pairs an endpoint pair may have: the tighter of its endpoints' limits, else the
 * defaults; when an admin's maximum is below the minimum, the maximum wins (never exceeded).
 *
 * @param min fewest session pairs, at least 1
 * @param max most session pairs, at least {@code min}
 * @param maxParallelism most data connections per file, at least 1
 */
public record Range(int min, int max, int maxParallelism) {

    /** Checks the bounds. */
    public Range {
        if (min < 1 || max < min || maxParallelism < 1) {
            throw new IllegalArgumentException("bad range " + min + ".." + max + ", parallelism " + maxParallelism);
        }
    }

    /** @return the value within the range */
    public int clamp(int value) {
        return Math.max(min, Math.min(max, value));
    }
}
