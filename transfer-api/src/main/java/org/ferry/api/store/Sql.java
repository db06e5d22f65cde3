package org.ferry.api.store;

import java.sql.Timestamp;
import java.time.Instant;

/** Bind helpers shared by the row classes. */
public final class Sql {

    private Sql() {}

    /** @return the instant as a JDBC timestamp (TIMESTAMP WITH TIME ZONE on H2 and PostgreSQL), or null */
    public static Timestamp time(Instant instant) {
        return instant == null ? null : Timestamp.from(instant);
    }

    /** @return the timestamp's instant, or null */
    public static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }

    /** @return {@code text} cut to {@code max} characters (column widths), or null */
    public static String cut(String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max);
    }
}
