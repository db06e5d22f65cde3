package org.ferry.mover.nio;

import java.net.URI;
import java.util.Locale;
import java.util.Objects;
import org.ferry.mover.client.GridFtpUrl;

/**
 * What tells one GridFTP file system from another: scheme, user, host and control port. One file
 * system (with its session pool) exists per key in a provider; the password is not part of the key.
 *
 * @param scheme {@code ftp}, {@code gsiftp} (or a plugged-in scheme such as {@code sshftp}), lower case
 * @param user the account asked for at login, or null for the scheme's default ({@code anonymous}
 *     for {@code ftp://}, the grid-mapfile's choice for {@code gsiftp://})
 * @param host the server's host name or address, lower case
 * @param port the control port (when the URI names none: 2811, the GridFTP convention
 *     {@link GridFtpUrl#DEFAULT_PORT}; for {@code sshftp://} the SSH port, 22)
 */
public record FileSystemKey(String scheme, String user, String host, int port) {

    /** @throws NullPointerException if scheme or host is null */
    public FileSystemKey {
        scheme = Objects.requireNonNull(scheme, "scheme").toLowerCase(Locale.ROOT);
        host = Objects.requireNonNull(host, "host").toLowerCase(Locale.ROOT);
        if (user != null && user.isEmpty()) {
            user = null;
        }
    }

    /**
     * @param uri e.g. {@code gsiftp://host:2811/data/x.h5} or {@code ftp://alice@host/}; the user
     *     info's part before a colon is the user
     * @return the key of the file system that URI names
     * @throws IllegalArgumentException if the URI is not absolute, or has no host
     */
    public static FileSystemKey of(URI uri) {
        if (uri.getScheme() == null || uri.getHost() == null) {
            throw new IllegalArgumentException("a GridFTP URI needs a scheme and a host: " + uri);
        }
        String user = null;
        String userInfo = uri.getUserInfo(); // decoded once
        if (userInfo != null && !userInfo.isEmpty()) {
            int colon = userInfo.indexOf(':');
            user = colon < 0 ? userInfo : userInfo.substring(0, colon);
        }
        int port = uri.getPort() >= 0
                ? uri.getPort()
                : uri.getScheme().equalsIgnoreCase("sshftp") ? GridFtpUrl.SSH_PORT : GridFtpUrl.DEFAULT_PORT;
        return new FileSystemKey(uri.getScheme(), user, uri.getHost(), port);
    }

    /** @return {@code scheme://[user@]host:port}, for messages */
    @Override
    public String toString() {
        return scheme + "://" + (user == null ? "" : user + "@") + host + ":" + port;
    }
}
