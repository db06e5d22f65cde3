package org.ferry.api.web;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Formats times as the API shows them: ISO-8601, UTC, offset {@code +00:00}, whole seconds. */
public final class ApiTime {

    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssxxx").withZone(ZoneOffset.UTC);

    private ApiTime() {}

    /** @return e.g. {@code 2026-11-22T10:15:30+00:00}, or null for null */
    public static String format(Instant time) {
        return time == null ? null : FORMAT.format(time);
    }
}
