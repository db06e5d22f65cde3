package org.ferry.mover.nio;

import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpUrl;

/**
 * {@code ftp://} paths: a clear-text login with USER/PASS (RFC 959 section 4.1.1), the user and
 * password from the URI or the {@code env} map, {@code anonymous}/{@code globus@} when neither names
 * one (as globus-url-copy logs in). Port 2811 when the URI names none (the GridFTP convention of
 * {@link GridFtpUrl}). Installed through {@code META-INF/services}.
 */
public final class FtpFileSystemProvider extends GridFtpFileSystemProvider {

    /** The provider of the {@code ftp} scheme. */
    public FtpFileSystemProvider() {
        super("ftp");
    }

    @Override
    Sessions sessions(FileSystemKey key, FileSystemSettings settings, GridFtpClient client) {
        GridFtpUrl url = new GridFtpUrl(
                "ftp",
                hostOf(key),
                key.port(),
                settings.user() == null ? "anonymous" : settings.user(),
                settings.password() == null ? "globus@" : settings.password(),
                "/");
        return new Sessions(() -> client.open(url), null);
    }

    /** @return the host to connect to: an IPv6 literal without its brackets */
    static String hostOf(FileSystemKey key) {
        String host = key.host();
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }
}
