package org.ferry.mover.server.dtp;

import java.util.concurrent.atomic.AtomicLongArray;
import org.ferry.mover.protocol.RangeTracker;

/**
 * Progress of one striped transfer: bytes per stripe (for 112 perf markers with "Stripe Index"
 * and "Total Stripe Count", GFD.020 "Performance Monitoring") and the ranges received so far (for
 * 111 range markers, section 2.6). Thread-safe.
 */
public final class StripedProgress {

    private final AtomicLongArray bytes;
    private final RangeTracker ranges = new RangeTracker();

    /** @param stripes number of stripes, at least 1 */
    public StripedProgress(int stripes) {
        bytes = new AtomicLongArray(stripes);
    }

    /**
     * @param index a stripe
     * @return the sink for that stripe's progress
     */
    public TransferProgress stripe(int index) {
        return new TransferProgress() {
            @Override
            public void accept(long total) {
                bytes.accumulateAndGet(index, total, Math::max); // reports may overtake each other
            }

            @Override
            public void received(long from, long to) {
                ranges.add(from, to);
            }
        };
    }

    /** @return number of stripes */
    public int stripes() {
        return bytes.length();
    }

    /**
     * @param index a stripe
     * @return its cumulative bytes
     */
    public long bytes(int index) {
        return bytes.get(index);
    }

    /** @return ranges received since the last call, or null if none */
    public String drainRanges() {
        return ranges.drain();
    }
}
