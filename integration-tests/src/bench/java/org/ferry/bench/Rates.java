package org.ferry.bench;

/** Unit conversions for the tables. */
final class Rates {

    private Rates() {}

    /** @return {@code bytes} over {@code elapsedNanos} in Gbit/s (10^9 bits per second) */
    static double gigabitsPerSecond(long bytes, long elapsedNanos) {
        return bytes * 8.0 / elapsedNanos;
    }

    /** @return {@code count} over {@code elapsedNanos} per second */
    static double perSecond(long count, long elapsedNanos) {
        return count * 1e9 / elapsedNanos;
    }

    /** @return a byte count as text in GiB or MiB */
    static String size(long bytes) {
        return bytes >= (1L << 30) ? (bytes >> 30) + " GiB" : (bytes >> 20) + " MiB";
    }
}
