package org.ferry.server.pages;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.springframework.stereotype.Component;

/** Numbers and times as the pages show them ({@code ${@formats.bytes(n)}} in templates). */
@Component("formats")
public class Formats {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};

    /**
     * @param bytes a size in bytes
     * @return {@code 512 B}, {@code 1.5 KiB}, {@code 12.0 MiB}, ... (binary units, as the CLI)
     */
    public String bytes(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        double value = bytes;
        int unit = 0;
        while (value >= 1024 && unit < UNITS.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, UNITS[unit]);
    }

    /**
     * @param bytesPerSecond a rate
     * @return e.g. {@code 85.3 MiB/s}
     */
    public String rate(double bytesPerSecond) {
        return bytes(Math.round(bytesPerSecond)) + "/s";
    }

    /**
     * @param seconds a duration in whole seconds
     * @return {@code 45 s}, {@code 3 min 20 s}, {@code 2 h 05 min}
     */
    public String duration(long seconds) {
        if (seconds < 60) {
            return Math.max(0, seconds) + " s";
        }
        if (seconds < 3600) {
            return seconds / 60 + " min " + seconds % 60 + " s";
        }
        return String.format(Locale.ROOT, "%d h %02d min", seconds / 3600, seconds % 3600 / 60);
    }

    /**
     * @param time an instant or null
     * @return {@code 2026-11-24 02:36:48 UTC}, or an empty string for null
     */
    public String time(Instant time) {
        return time == null ? "" : TIME.format(time);
    }

    /**
     * @param time an instant or null
     * @return ISO-8601 UTC for a {@code <time datetime>} attribute, or an empty string
     */
    public String iso(Instant time) {
        return time == null ? "" : DateTimeFormatter.ISO_INSTANT.format(time);
    }

    /**
     * @param done a count done
     * @param total the count to do
     * @return whole percent done, 0 when the total is unknown (0)
     */
    public int percent(long done, long total) {
        return total <= 0 ? 0 : (int) Math.min(100, done * 100 / total);
    }
}
