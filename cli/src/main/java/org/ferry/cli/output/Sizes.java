package org.ferry.cli.output;

import java.util.Locale;

/** Formats byte counts and rates for people, in binary units (KiB, MiB, ...). */
public final class Sizes {
    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};

    private Sizes() {}

    /**
     * A byte count for people.
     *
     * @param bytes a count of bytes, at least 0
     * @return e.g. {@code 512 B}, {@code 1.5 MiB}
     */
    public static String bytes(double bytes) {
        int unit = 0;
        double value = bytes;
        while (value >= 1024 && unit < UNITS.length - 1) {
            value /= 1024;
            unit++;
        }
        return unit == 0
                ? String.format(Locale.ROOT, "%d B", (long) value)
                : String.format(Locale.ROOT, "%.1f %s", value, UNITS[unit]);
    }

    /**
     * A rate for people.
     *
     * @param bytesPerSecond bytes per second, at least 0
     * @return e.g. {@code 85.3 MiB/s}
     */
    public static String rate(double bytesPerSecond) {
        return bytes(bytesPerSecond) + "/s";
    }

    /**
     * A duration for people.
     *
     * @param seconds whole seconds, 0 or more
     * @return e.g. {@code 45s}, {@code 3m12s}, {@code 2h05m}, {@code 3d04h}
     */
    public static String duration(long seconds) {
        if (seconds < 60) {
            return seconds + "s";
        }
        if (seconds < 3600) {
            return seconds / 60 + "m" + String.format(Locale.ROOT, "%02d", seconds % 60) + "s";
        }
        if (seconds < 86400) {
            return seconds / 3600 + "h" + String.format(Locale.ROOT, "%02d", seconds % 3600 / 60) + "m";
        }
        return seconds / 86400 + "d" + String.format(Locale.ROOT, "%02d", seconds % 86400 / 3600) + "h";
    }
}
