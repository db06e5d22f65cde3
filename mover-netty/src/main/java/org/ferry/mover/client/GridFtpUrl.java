package org.ferry.mover.client;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Where a GridFTP server is and how to log in to it: {@code ftp://[user[:password]@]host[:port][/path]}
 * or {@code gsiftp://...} (GridFTP URLs as globus-url-copy takes them; default port 2811 for both,
 * the GridFTP convention, not FTP's 21), or {@code sshftp://[user@]host[:port][/path]}, the control
 * channel through SSH (default port 22; the user defaults to the local account, as for ssh).
 *
 * @param scheme {@code ftp}, {@code gsiftp} or {@code sshftp}
 * @param host host name or address
 * @param port control channel port
 * @param username user to log in as; {@code anonymous} when the URL names none
 * @param password password; {@code globus@} (what globus-url-copy sends) for anonymous
 * @param path the absolute path in the URL, {@code /} when absent
 */
public record GridFtpUrl(String scheme, String host, int port, String username, String password, String path) {

    /** The GridFTP default control port. */
    public static final int DEFAULT_PORT = 2811;

    /** The SSH port, where {@code sshftp://} URLs connect by default. */
    public static final int SSH_PORT = 22;

    /** @throws NullPointerException if a component is null */
    public GridFtpUrl {
        Objects.requireNonNull(scheme, "scheme");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(username, "username");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(path, "path");
    }

    /**
     * Parses a URL.
     *
     * @param url e.g. {@code ftp://alice:secret@127.0.0.1:2811/data}; user info may be percent-encoded
     * @return the parsed URL
     * @throws IllegalArgumentException if the URL is malformed, has no host, or its scheme is not
     *     {@code ftp}, {@code gsiftp} or {@code sshftp}
     */
    public static GridFtpUrl parse(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("malformed GridFTP URL '" + url + "': " + e.getMessage(), e);
        }
        String scheme = uri.getScheme();
        if (scheme == null
                || !(scheme.equalsIgnoreCase("ftp")
                        || scheme.equalsIgnoreCase("gsiftp")
                        || scheme.equalsIgnoreCase("sshftp"))) {
            throw new IllegalArgumentException(
                    "GridFTP URL must start with ftp://, gsiftp:// or sshftp://: '" + url + "'");
        }
        boolean ssh = scheme.equalsIgnoreCase("sshftp");
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("GridFTP URL has no host: '" + url + "'");
        }
        // sshftp: the SSH login's account; PASS is a formality the pre-authenticated server ignores
        String user = ssh ? System.getProperty("user.name") : "anonymous";
        String password = ssh ? "" : "globus@";
        String userInfo = uri.getRawUserInfo();
        if (userInfo != null && !userInfo.isEmpty()) {
            int colon = userInfo.indexOf(':');
            user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon));
            password = colon < 0 ? "" : decode(userInfo.substring(colon + 1));
        }
        String path = uri.getPath() == null || uri.getPath().isEmpty() ? "/" : uri.getPath();
        int port = uri.getPort() < 0 ? (ssh ? SSH_PORT : DEFAULT_PORT) : uri.getPort();
        return new GridFtpUrl(scheme.toLowerCase(), uri.getHost(), port, user, password, path);
    }

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** @return this URL with another password */
    public GridFtpUrl withPassword(String newPassword) {
        return new GridFtpUrl(scheme, host, port, username, newPassword, path);
    }

    /** @return this URL with another path */
    public GridFtpUrl withPath(String newPath) {
        return new GridFtpUrl(scheme, host, port, username, password, newPath);
    }

    /** @return the URL without credentials, safe to log or show */
    @Override
    public String toString() {
        return scheme + "://" + host + ":" + port + path;
    }
}
