package org.ferry.mover.server.popen;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Globus XIO driver stack as {@code SITE SETDISKSTACK} and {@code SITE SETNETSTACK} carry it:
 * drivers top to bottom, separated by {@code ,}; each {@code name} or {@code name:options}, the
 * options {@code key=value} pairs separated by {@code ;}, each part {@code %XX}-decoded
 * (globus_xio_driver_list_from_string and globus_i_xio_string_cntl_parser in globus_xio_attr.c).
 * {@code default} stands for the server's default stack. Parsing only: which drivers a server
 * accepts is {@link DiskStacks}' business.
 *
 * @param drivers the drivers, top first; empty for {@code default}
 */
public record DriverStack(List<Driver> drivers) {

    /** Longest stack string accepted (the control channel's line limit is smaller anyway). */
    public static final int MAX_LENGTH = 4096;

    /**
     * One driver of a stack.
     *
     * @param name the driver's name, e.g. {@code popen}, {@code file}, {@code tcp}
     * @param options its options by key, in order; empty when none were given
     */
    public record Driver(String name, Map<String, String> options) {
        /** Copies the options, keeping their order. */
        public Driver {
            options = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(options));
        }
    }

    /** Copies the list. */
    public DriverStack {
        drivers = List.copyOf(drivers);
    }

    /** @return true for {@code default}: the server's own stack */
    public boolean isDefault() {
        return drivers.isEmpty();
    }

    /**
     * Parses a stack string.
     *
     * @param text e.g. {@code popen:argv=#/bin/tar#cf#-#run1,ordering}, or {@code default}
     * @return the stack
     * @throws IllegalArgumentException for an empty stack or driver name, a name with characters
     *     other than letters, digits, {@code _} and {@code -}, an option without {@code =}, a
     *     repeated option, a bad {@code %XX} escape, or a string over {@link #MAX_LENGTH}
     */
    public static DriverStack parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty driver stack");
        }
        if (text.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("driver stack longer than " + MAX_LENGTH + " characters");
        }
        String stack = text; // not stripped: a trailing space may be an argument's
        if (stack.strip().equalsIgnoreCase("default")) {
            return new DriverStack(List.of());
        }
        List<Driver> drivers = new ArrayList<>();
        for (String entry : stack.split(",", -1)) {
            int colon = entry.indexOf(':');
            String name = colon < 0 ? entry : entry.substring(0, colon);
            if (!name.matches("[A-Za-z0-9_-]+")) {
                throw new IllegalArgumentException("bad driver name '" + name + "' in stack '" + stack + "'");
            }
            Map<String, String> options = new LinkedHashMap<>();
            if (colon >= 0) {
                // split first, decode each part after: an escaped ; or = stays in its value (globus
                // decodes the whole option string first, so there %3B still splits)
                for (String pair : entry.substring(colon + 1).split(";", -1)) {
                    if (pair.isEmpty()) {
                        continue; // "a=b;" ends with an empty item, as globus_list_from_string skips it
                    }
                    int equals = pair.indexOf('=');
                    if (equals <= 0) {
                        throw new IllegalArgumentException("driver option without key=value: '" + pair + "'");
                    }
                    String key = percentDecode(pair.substring(0, equals));
                    if (options.putIfAbsent(key, percentDecode(pair.substring(equals + 1))) != null) {
                        throw new IllegalArgumentException("driver option '" + key + "' given twice");
                    }
                }
            }
            drivers.add(new Driver(name.toLowerCase(java.util.Locale.ROOT), options));
        }
        return new DriverStack(drivers);
    }

    /**
     * Decodes {@code %XX} escapes as globus_url_string_hex_decode does (bytes, read as UTF-8).
     *
     * @throws IllegalArgumentException for a {@code %} not followed by two hex digits
     */
    static String percentDecode(String text) {
        if (text.indexOf('%') < 0) {
            return text;
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length);
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] != '%') {
                out.write(bytes[i]);
                continue;
            }
            if (i + 2 >= bytes.length
                    || Character.digit(bytes[i + 1], 16) < 0
                    || Character.digit(bytes[i + 2], 16) < 0) {
                throw new IllegalArgumentException("bad %XX escape in driver options '" + text + "'");
            }
            out.write(Character.digit(bytes[i + 1], 16) * 16 + Character.digit(bytes[i + 2], 16));
            i += 2;
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /**
     * Splits a delimited list value as globus_xio_string_cntl_string_list does: its first character
     * is the delimiter, the rest is split at it; empty items in the middle stay, a trailing empty one
     * goes. {@code #tar#cf#-} gives {@code [tar, cf, -]}.
     *
     * @param value the option value, e.g. the popen driver's {@code argv}
     * @return the items; empty for an empty value or one that is only a delimiter
     */
    public static List<String> splitList(String value) {
        if (value.isEmpty()) {
            return List.of();
        }
        String delimiter = value.substring(0, value.offsetByCodePoints(0, 1));
        String rest = value.substring(delimiter.length());
        List<String> items = new ArrayList<>(List.of(rest.split(java.util.regex.Pattern.quote(delimiter), -1)));
        if (!items.isEmpty() && items.get(items.size() - 1).isEmpty()) {
            items.remove(items.size() - 1);
        }
        return items;
    }
}
