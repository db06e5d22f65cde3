package org.ferry.mover.protocol;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Collects byte ranges written since the last restart marker and renders them merged as the
 * argument of {@code 111 Range Marker a-b,c-d} (start inclusive, end exclusive;
 * GFD.020 "Restarting"). Thread-safe: MODE E blocks are written
 * from several I/O threads.
 */
public final class RangeTracker {

    private final List<long[]> pending = new ArrayList<>();

    /**
     * Records a written range.
     *
     * @param start first byte offset
     * @param end offset after the last byte; ignored if not greater than {@code start}
     */
    public synchronized void add(long start, long end) {
        if (end > start) {
            pending.add(new long[] {start, end});
        }
    }

    /**
     * Takes the ranges recorded since the previous call.
     *
     * @return them merged and sorted, e.g. {@code 0-1048576,2097152-3145728}; null if none
     */
    public synchronized String drain() {
        if (pending.isEmpty()) {
            return null;
        }
        pending.sort(Comparator.comparingLong(r -> r[0]));
        StringBuilder sb = new StringBuilder();
        long start = pending.get(0)[0];
        long end = pending.get(0)[1];
        for (long[] range : pending.subList(1, pending.size())) {
            if (range[0] <= end) {
                end = Math.max(end, range[1]);
            } else {
                sb.append(start).append('-').append(end).append(',');
                start = range[0];
                end = range[1];
            }
        }
        sb.append(start).append('-').append(end);
        pending.clear();
        return sb.toString();
    }
}
