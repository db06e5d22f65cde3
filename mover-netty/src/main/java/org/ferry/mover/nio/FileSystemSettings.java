package org.ferry.mover.nio;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.ferry.mover.client.GsiClientSecurity;
import org.ferry.mover.client.SshftpSecurity;
import org.ferry.mover.client.TransferOptions;

/**
 * A file system's settings, read once from the {@code env} map of
 * {@link java.nio.file.FileSystems#newFileSystem(java.net.URI, Map)} (keys are the constants of
 * {@link GridFtpFileSystemProvider}; values are strings, numbers or, for {@code gsi}, a
 * {@link GsiClientSecurity}).
 *
 * @param user the account to log in as, or null for the scheme's default
 * @param password the password ({@code ftp://}); {@code globus@} when none is given, as
 *     globus-url-copy sends for anonymous logins
 * @param parallelism MODE E data connections per transfer, 1..64
 * @param maxSessions sessions open at once to the server, at least 2 (a copy within one server
 *     needs two)
 * @param replyTimeout how long any one reply, a free session or a silent data channel is waited for
 * @param readWindowBytes the largest window one partial retrieve fetches, 64 KiB .. 1 GiB
 * @param readAheadWindows windows fetched ahead of a sequential reader, 0..16
 * @param writeBufferBytes bytes a writing channel gathers before it sends them, 64 KiB .. 1 GiB
 * @param gsi the GSI credential and trust for {@code gsiftp://}, or null to take them from the
 *     environment as the Globus tools do
 * @param ssh host keys, login keys and remote command for {@code sshftp://}, or null for what the
 *     {@code ssh} command would use
 * @param environment variables that override the process environment for finding GSI material
 *     ({@code X509_USER_PROXY}, {@code X509_CERT_DIR})
 */
record FileSystemSettings(
        String user,
        String password,
        int parallelism,
        int maxSessions,
        Duration replyTimeout,
        int readWindowBytes,
        int readAheadWindows,
        int writeBufferBytes,
        GsiClientSecurity gsi,
        SshftpSecurity ssh,
        Map<String, String> environment) {

    /** Default MODE E parallelism: what globus-url-copy users ask with {@code -p 4}. */
    static final int DEFAULT_PARALLELISM = 4;

    /**
     * @param env the map given to {@code newFileSystem} (may be empty)
     * @param uriUser the user named in the URI, or null; wins over {@code env}'s
     * @param uriPassword the password in the URI, or null; wins over {@code env}'s
     * @return the settings
     * @throws IllegalArgumentException if a value is of the wrong type or out of range
     */
    static FileSystemSettings of(Map<String, ?> env, String uriUser, String uriPassword) {
        String user = uriUser != null ? uriUser : string(env, GridFtpFileSystemProvider.USER, null);
        String password = uriPassword != null ? uriPassword : string(env, GridFtpFileSystemProvider.PASSWORD, null);
        int parallelism = integer(env, GridFtpFileSystemProvider.PARALLELISM, DEFAULT_PARALLELISM, 1, 64);
        int maxSessions = integer(env, GridFtpFileSystemProvider.MAX_SESSIONS, 8, 2, 10_000);
        int timeoutSeconds = integer(env, GridFtpFileSystemProvider.REPLY_TIMEOUT_SECONDS, 120, 1, 86_400);
        int window = integer(env, GridFtpFileSystemProvider.READ_WINDOW_BYTES, 32 << 20, 64 << 10, 1 << 30);
        int ahead = integer(env, GridFtpFileSystemProvider.READ_AHEAD_WINDOWS, 2, 0, 16);
        int writeBuffer = integer(env, GridFtpFileSystemProvider.WRITE_BUFFER_BYTES, 8 << 20, 64 << 10, 1 << 30);
        Object gsi = env.get(GridFtpFileSystemProvider.GSI);
        if (gsi != null && !(gsi instanceof GsiClientSecurity)) {
            throw new IllegalArgumentException(
                    GridFtpFileSystemProvider.GSI + " must be a " + GsiClientSecurity.class.getName() + ", was "
                            + gsi.getClass().getName());
        }
        Object ssh = env.get(GridFtpFileSystemProvider.SSH);
        if (ssh != null && !(ssh instanceof SshftpSecurity)) {
            throw new IllegalArgumentException(GridFtpFileSystemProvider.SSH + " must be a "
                    + SshftpSecurity.class.getName() + ", was " + ssh.getClass().getName());
        }
        Map<String, String> environment = new HashMap<>();
        for (String name : new String[] {"X509_USER_PROXY", "X509_CERT_DIR"}) {
            String value = string(env, name, null);
            if (value != null) {
                environment.put(name, value);
            }
        }
        return new FileSystemSettings(
                user,
                password,
                parallelism,
                maxSessions,
                Duration.ofSeconds(timeoutSeconds),
                window,
                ahead,
                writeBuffer,
                (GsiClientSecurity) gsi,
                (SshftpSecurity) ssh,
                Map.copyOf(environment));
    }

    /** @return MODE E with this file system's parallelism */
    TransferOptions transferOptions() {
        return TransferOptions.extendedBlock(parallelism);
    }

    private static String string(Map<String, ?> env, String key, String fallback) {
        Object value = env.get(key);
        if (value == null) {
            return fallback;
        }
        if (value instanceof CharSequence s) {
            return s.toString();
        }
        throw new IllegalArgumentException(
                key + " must be a string, was " + value.getClass().getName());
    }

    private static int integer(Map<String, ?> env, String key, int fallback, int min, int max) {
        Object value = env.get(key);
        if (value == null) {
            return fallback;
        }
        long n;
        if (value instanceof Number number) {
            n = number.longValue();
        } else if (value instanceof CharSequence s) {
            try {
                n = Long.parseLong(s.toString().strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(key + " must be a whole number, was '" + s + "'", e);
            }
        } else {
            throw new IllegalArgumentException(
                    key + " must be a number, was " + value.getClass().getName());
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(key + " must be " + min + ".." + max + ", was " + n);
        }
        return (int) n;
    }
}
