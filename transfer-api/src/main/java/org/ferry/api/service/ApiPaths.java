package org.ferry.api.service;

/** Checks and normalizes the absolute paths clients send. */
public final class ApiPaths {

    private ApiPaths() {}

    /**
     * @param field the JSON field or parameter, for the error
     * @param path the path as sent
     * @return the path without a trailing slash (except {@code /} itself) and without doubled slashes
     * @throws ApiException 400 if the path is not absolute or holds CR, LF or NUL (which would
     *     break the GridFTP command line)
     */
    public static String absolute(String field, String path) {
        if (path == null || path.isEmpty()) {
            throw ApiException.badRequest(field, field + " is required");
        }
        if (!path.startsWith("/")) {
            throw ApiException.badRequest(field, field + " must be an absolute path");
        }
        if (path.indexOf('\r') >= 0 || path.indexOf('\n') >= 0 || path.indexOf('\0') >= 0) {
            throw ApiException.badRequest(field, field + " must not contain CR, LF or NUL");
        }
        String normalized = path.replaceAll("/{2,}", "/");
        if (normalized.length() > 1 && normalized.endsWith("/")) {
            normalized = normalized.substring(0, normalized.length() - 1);
        }
        return normalized;
    }
}
