package org.ferry.api.service;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import org.ferry.api.error.InvalidRequestException;

/**
 * Reads the times clients send: ISO-8601 with or without an offset (UTC then), a space instead
 * of {@code T} as globus-sdk examples write ({@code 2017-10-12 09:30Z}), or a date alone
 * (midnight UTC).
 */
public final class TimeValues {

    private static final DateTimeFormatter SPACED_OFFSET = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE)
            .appendLiteral(' ')
            .append(DateTimeFormatter.ISO_LOCAL_TIME)
            .appendOffset("+HH:MM", "Z")
            .toFormatter();

    private TimeValues() {}

    /**
     * @param field the field, for the error
     * @param text the time as sent, or null
     * @return the instant, or null for null
     * @throws InvalidRequestException naming the field if it is not such a time
     */
    public static Instant parse(String field, String text) {
        if (text == null) {
            return null;
        }
        String value = text.strip();
        try {
            return OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException e) {
            // try the next form
        }
        try {
            return OffsetDateTime.parse(value, SPACED_OFFSET).toInstant();
        } catch (DateTimeParseException e) {
            // try the next form
        }
        try {
            return LocalDateTime.parse(value.replace(' ', 'T')).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            // try the next form
        }
        try {
            return LocalDate.parse(value).atStartOfDay().toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw new InvalidRequestException(
                    field, field + " must be an ISO-8601 time, e.g. 2026-11-23T08:00:00+00:00");
        }
    }
}
