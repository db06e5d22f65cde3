package org.ferry.bench;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code globus-gridftp-server -aa} on 127.0.0.1 as a detached daemon ({@code -S}, forking one
 * process per session, its default), anonymous users mapped to {@code gsuser} (as root it refuses
 * to map them to root). Paths in its URLs are absolute file system paths.
 */
final class GlobusServer implements AutoCloseable {

    static final String PROGRAM = "/usr/sbin/globus-gridftp-server";

    /** The control port of a server on a namespace host: the namespace has nothing else listening. */
    private static final int NAMESPACE_PORT = 2811;

    private final Path pidFile;
    private final int port;
    private final String host;

    private GlobusServer(Path pidFile, int port, String host) {
        this.pidFile = pidFile;
        this.port = port;
        this.host = host;
    }

    /** Starts the daemon on 127.0.0.1 and waits until it accepts connections. */
    static GlobusServer start(Path pidFile) throws IOException, InterruptedException {
        return start(pidFile, null);
    }

    /**
     * Starts the daemon on a host of a {@link NamespaceHosts} (control and data on its address,
     * {@code GLOBUS_HOSTNAME} set to it), or on 127.0.0.1, and waits until it accepts connections.
     *
     * @param pidFile where the daemon writes its pid
     * @param on the host, or null for this one's loopback
     */
    static GlobusServer start(Path pidFile, NamespaceHosts.Host on) throws IOException, InterruptedException {
        String host = on == null ? "127.0.0.1" : on.address();
        int port = on == null ? FerryServer.freePort() : NAMESPACE_PORT;
        Files.createDirectories(pidFile.getParent());
        Files.deleteIfExists(pidFile);
        List<String> command = List.of(
                PROGRAM,
                "-aa",
                "-anonymous-user",
                "gsuser",
                "-p",
                Integer.toString(port),
                "-control-interface",
                host,
                "-data-interface",
                host,
                "-d",
                "error",
                "-disable-usage-stats",
                "-S",
                "-pidfile",
                pidFile.toString());
        Command.check(on == null ? command : on.exec(command), 30);
        for (int i = 0; i < 100; i++) {
            if (accepts(on, host, port)) {
                return new GlobusServer(pidFile, port, host);
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("globus-gridftp-server did not listen on " + host + ":" + port);
    }

    /** @return true if a connection to {@code host:port} succeeds (from inside the host's namespace) */
    private static boolean accepts(NamespaceHosts.Host on, String host, int port)
            throws IOException, InterruptedException {
        if (on == null) {
            try (Socket probe = new Socket(host, port)) {
                return true;
            } catch (IOException notYet) {
                return false;
            }
        }
        return Command.run(on.exec(List.of("bash", "-c", "exec 3<>/dev/tcp/" + host + "/" + port)), 10)
                        .exitCode()
                == 0;
    }

    /** @return {@code ftp://HOST:PORT} (append an absolute path) */
    String url() {
        return "ftp://" + host + ":" + port;
    }

    @Override
    public void close() throws IOException {
        if (Files.exists(pidFile)) {
            long pid = Long.parseLong(Files.readString(pidFile).trim());
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
            Files.deleteIfExists(pidFile); // bench/run stops the servers of the pid files a killed run left
        }
    }
}
