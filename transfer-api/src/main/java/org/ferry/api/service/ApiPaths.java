package org.ferry.api.service;

import org.ferry.api.error.InvalidRequestException;

/** Checks and normalizes the absolute paths clients send. */
public final class ApiPaths {

    /** Longest path accepted (the database column's size). */
    public static final int MAX_PATH_CHARS = 4096;

    private ApiPaths() {}

    /**
     * @param field the JSON field or parameter, for the error
     * @param path the path as sent
     * @return the path without a trailing slash (except {@code /} itself), doubled slashes,
     *     {@code .} segments, or {@code ..} segments (each takes the segment before it away)
     * @throws InvalidRequestException naming the field if the path is missing, not absolute,
     *     longer than {@value #MAX_PATH_CHARS} characters, holds CR, LF or NUL (which would break
     *     the GridFTP command line), or climbs above the root with {@code ..}
     */
    public static String absolute(String field, String path) {
        if (path == null || path.isEmpty()) {
            throw new InvalidRequestException(field, field + " is required");
        }
        if (!path.startsWith("/")) {
            throw new InvalidRequestException(field, field + " must be an absolute path");
        }
        if (path.length() > MAX_PATH_CHARS) {
            throw new InvalidRequestException(field, field + " must be at most " + MAX_PATH_CHARS + " characters");
        }
        if (path.indexOf('\r') >= 0 || path.indexOf('\n') >= 0 || path.indexOf('\0') >= 0) {
            throw new InvalidRequestException(field, field + " must not contain CR, LF or NUL");
        }
        java.util.ArrayDeque<String> segments = new java.util.ArrayDeque<>();
        for (String segment : path.split("/")) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (segment.equals("..")) {
                if (segments.isEmpty()) {
                    throw new InvalidRequestException(field, field + " climbs above the root with '..': " + path);
                }
                segments.removeLast();
            } else {
                segments.addLast(segment);
            }
        }
        return "/" + String.join("/", segments);
    }

    /** @return the last component of a normalized absolute path ({@code /} for the root) */
    public static String name(String path) {
        return path.equals("/") ? "/" : path.substring(path.lastIndexOf('/') + 1);
    }
}
