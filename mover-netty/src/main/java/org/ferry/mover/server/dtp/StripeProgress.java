package org.ferry.mover.server.dtp;

/**
 * Receives one stripe's progress, for 112 perf markers (per stripe: "Stripe Index", "Stripe Bytes
 * Transferred", GFD.020 "Performance Monitoring") and 111 range markers (section 2.6). Called from
 * I/O or link threads; implementations must be thread-safe.
 */
@FunctionalInterface
public interface StripeProgress {

    /**
     * @param bytes cumulative bytes of this stripe
     * @param ranges newly completed ranges {@code a-b,c-d} (end exclusive), or empty
     */
    void update(long bytes, String ranges);

    /** @return a progress sink that ignores everything */
    static StripeProgress none() {
        return (bytes, ranges) -> {};
    }
}
