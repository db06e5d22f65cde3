package org.ferry.scheduler.optimize;

import java.util.HashMap;
import java.util.Map;

/**
 * Counts, per endpoint pair, what arrived and what failed since the optimizer's last interval
 * (fed by the result applier, drained by {@link Optimizer#decide}). Thread-safe. Counts what this
 * instance applied: with several ferry-server instances each optimizes from the results it
 * applies (docs/optimizer.md "Limits of this version").
 */
public final class PairMeter {

    private final Map<String, long[]> counts = new HashMap<>();

    /**
     * @param pair the endpoint pair ({@code source>destination})
     * @param bytes the files' sizes
     * @param files files that arrived
     */
    public synchronized void arrived(String pair, long bytes, int files) {
        long[] c = counts.computeIfAbsent(pair, p -> new long[3]);
        c[0] += bytes;
        c[1] += files;
    }

    /** @param pair the endpoint pair of a transient fault */
    public synchronized void failed(String pair) {
        counts.computeIfAbsent(pair, p -> new long[3])[2]++;
    }

    /**
     * @param seconds the interval's length
     * @return the samples since the last drain, per pair; the counts start again at 0
     */
    public synchronized Map<String, PairSample> drain(double seconds) {
        Map<String, PairSample> samples = new HashMap<>();
        counts.forEach((pair, c) -> samples.put(pair, new PairSample(c[0], (int) c[1], (int) c[2], seconds)));
        counts.clear();
        return samples;
    }
}
