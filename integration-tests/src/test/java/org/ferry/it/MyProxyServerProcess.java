package org.ferry.it;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A real {@code myproxy-server} on 127.0.0.1 with a host credential, handing out its trust
 * directory as trust roots ({@code cert_dir}), accepting stored credentials and retrievals by
 * passphrase from anyone ({@code accepted_credentials "*"}, {@code authorized_retrievers "*"}).
 * It forks per connection and detaches; close stops it by the pid it wrote.
 */
final class MyProxyServerProcess implements AutoCloseable {

    private final Path pidFile;
    private final int port;

    private MyProxyServerProcess(Path pidFile, int port) {
        this.pidFile = pidFile;
        this.port = port;
    }

    /**
     * @param dir where the configuration, the storage and the pid file go
     * @param hostCertificate the server's certificate (CN=host/localhost)
     * @param hostKey its key
     * @param trustDirectory its CA directory, also handed out as trust roots
     * @return the running server
     * @throws IOException if it does not start listening within 60 s
     */
    static MyProxyServerProcess start(Path dir, Path hostCertificate, Path hostKey, Path trustDirectory)
            throws IOException, InterruptedException {
        return start(
                dir,
                hostCertificate,
                hostKey,
                trustDirectory,
                "accepted_credentials \"*\"\nauthorized_retrievers \"*\"\ncert_dir " + trustDirectory + "\n");
    }

    /**
     * As {@link #start(Path, Path, Path, Path)} with a configuration of the caller's (e.g. an
     * online CA: {@code certificate_issuer_cert}, {@code pam}, docs/deployment.md).
     *
     * @param configuration the text of {@code myproxy-server.config}
     */
    static MyProxyServerProcess start(
            Path dir, Path hostCertificate, Path hostKey, Path trustDirectory, String configuration)
            throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path config = Files.writeString(dir.resolve("myproxy-server.config"), configuration);
        Path storage = Files.createDirectory(
                dir.resolve("storage"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        Path pidFile = dir.resolve("myproxy-server.pid");
        GlobusTools.Run started = GlobusTools.run(
                Map.of(
                        "X509_CERT_DIR", trustDirectory.toString(),
                        "X509_USER_CERT", hostCertificate.toString(),
                        "X509_USER_KEY", hostKey.toString()),
                60,
                List.of(
                        GlobusTools.MYPROXY_SERVER.toString(),
                        "-c",
                        config.toString(),
                        "-s",
                        storage.toString(),
                        "-l",
                        "127.0.0.1",
                        "-p",
                        Integer.toString(port),
                        "-P",
                        pidFile.toString()));
        if (started.exitCode() != 0) {
            throw new IOException("myproxy-server did not start: " + started.output());
        }
        MyProxyServerProcess server = new MyProxyServerProcess(pidFile, port);
        try {
            Awaitility.await("myproxy-server listening on port " + port)
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .ignoreException(IOException.class)
                    .until(() -> {
                        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                            return true;
                        }
                    });
            return server;
        } catch (ConditionTimeoutException e) {
            server.close();
            throw new IOException("myproxy-server did not listen on port " + port + " within 60 s", e);
        }
    }

    /** @return the port */
    int port() {
        return port;
    }

    /** @return {@code localhost:PORT}, how endpoints name it (localhost: its certificate's name) */
    String address() {
        return "localhost:" + port;
    }

    /**
     * Stores a user's credential with {@code myproxy-init}, retrievable by passphrase.
     *
     * @param userCertificate the user's certificate file
     * @param userKey the user's unencrypted key file
     * @param trustDirectory the CAs myproxy-init checks the server against
     * @param username the MyProxy account
     * @param passphrase its passphrase
     */
    void store(Path userCertificate, Path userKey, Path trustDirectory, String username, String passphrase)
            throws IOException, InterruptedException {
        GlobusTools.Run stored = GlobusTools.run(
                Map.of(
                        "X509_CERT_DIR", trustDirectory.toString(),
                        "X509_USER_CERT", userCertificate.toString(),
                        "X509_USER_KEY", userKey.toString(),
                        "X509_USER_PROXY",
                                userCertificate
                                        .resolveSibling("myproxy-init-proxy")
                                        .toString()),
                120,
                passphrase + "\n",
                List.of(
                        GlobusTools.MYPROXY_INIT.toString(),
                        "-s",
                        "localhost",
                        "-p",
                        Integer.toString(port),
                        "-l",
                        username,
                        "-S",
                        "-c",
                        "24",
                        "-t",
                        "12"));
        if (stored.exitCode() != 0 || !stored.output().contains("now exists on localhost")) {
            throw new IOException("myproxy-init failed: " + stored.output());
        }
    }

    @Override
    public void close() throws IOException {
        if (Files.exists(pidFile)) {
            long pid = Long.parseLong(Files.readString(pidFile).strip());
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
        }
    }
}
