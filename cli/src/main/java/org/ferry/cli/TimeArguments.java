package org.ferry.cli;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Reads the time arguments of the CLI: durations such as {@code 30d}, {@code 1h30m},
 * {@code 500s} (w, d, h, m, s, as globus-cli's timer intervals) and deadlines, either ISO-8601
 * with an offset or relative to now as {@code +6h}.
 */
public final class TimeArguments {
    private static final Pattern DURATION =
            Pattern.compile("(?:(\\d+)w)?(?:(\\d+)d)?(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?");
    private static final DateTimeFormatter ISO =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssxxx").withZone(ZoneOffset.UTC);

    private TimeArguments() {}

    /**
     * @param text e.g. {@code 30d}, {@code 1h30m}, {@code 90s}
     * @return the duration
     * @throws IllegalArgumentException if it is not one
     */
    public static Duration duration(String text) {
        Matcher m = DURATION.matcher(text.trim());
        if (text.isBlank() || !m.matches()) {
            throw new IllegalArgumentException(
                    "expected a duration such as 30d, 6h, 1h30m or 90s but was '" + text + "'");
        }
        long seconds = part(m, 1) * 7 * 86400 + part(m, 2) * 86400 + part(m, 3) * 3600 + part(m, 4) * 60 + part(m, 5);
        if (seconds <= 0) {
            throw new IllegalArgumentException("the duration must be positive: '" + text + "'");
        }
        return Duration.ofSeconds(seconds);
    }

    private static long part(Matcher m, int group) {
        return m.group(group) == null ? 0 : Long.parseLong(m.group(group));
    }

    /**
     * @param text {@code +6h} (from now) or ISO-8601 with an offset
     * @param now the time {@code +} counts from
     * @return the deadline as ISO-8601 UTC, e.g. {@code 2026-11-23T08:00:00+00:00}
     * @throws IllegalArgumentException if it is neither
     */
    public static String deadline(String text, Instant now) {
        String value = text.trim();
        if (value.startsWith("+")) {
            return ISO.format(now.plus(duration(value.substring(1))));
        }
        try {
            return ISO.format(OffsetDateTime.parse(value).toInstant());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(
                    "expected +DURATION (e.g. +6h) or ISO-8601 with an offset (e.g. 2026-11-23T08:00:00+00:00) but was '"
                            + text + "'");
        }
    }

    /** Picocli converter for deadlines: a bad value is a usage error (exit code 2). */
    public static final class DeadlineConverter implements CommandLine.ITypeConverter<String> {
        @Override
        public String convert(String value) {
            try {
                return deadline(value, Instant.now());
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** Picocli converter for durations. */
    public static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                return duration(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
