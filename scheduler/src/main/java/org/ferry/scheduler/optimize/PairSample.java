package org.ferry.scheduler.optimize;

/**
 * What one endpoint pair did in one interval.
 *
 * @param bytes bytes of the files that arrived
 * @param succeeded files that arrived
 * @param failed transient faults of files, and chunks a transient fault stopped (a session refused
 *     with 421, a broken connection); permanent faults (no such file) say nothing of the link and
 *     are not counted, as in FTS3
 * @param seconds the interval's length
 */
public record PairSample(long bytes, int succeeded, int failed, double seconds) {

    /** @return bytes per second, 0 for an empty interval */
    public double throughput() {
        return seconds <= 0 ? 0 : bytes / seconds;
    }

    /** @return percent of the finished files that succeeded; 100 when none finished (FTS3) */
    public double successRate() {
        int finished = succeeded + failed;
        return finished == 0 ? 100.0 : 100.0 * succeeded / finished;
    }

    /** @return true if nothing arrived and nothing failed */
    public boolean idle() {
        return bytes == 0 && succeeded == 0 && failed == 0;
    }
}
