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

    private final Path pidFile;
    private final int port;

    private GlobusServer(Path pidFile, int port) {
        this.pidFile = pidFile;
        this.port = port;
    }

    /** Starts the daemon and waits until it accepts connections. */
    static GlobusServer start(Path pidFile) throws IOException, InterruptedException {
        int port = FerryServer.freePort();
        Files.createDirectories(pidFile.getParent());
        Files.deleteIfExists(pidFile);
        Command.check(
                List.of(
                        PROGRAM,
                        "-aa",
                        "-anonymous-user",
                        "gsuser",
                        "-p",
                        Integer.toString(port),
                        "-control-interface",
                        "127.0.0.1",
                        "-data-interface",
                        "127.0.0.1",
                        "-d",
                        "error",
                        "-disable-usage-stats",
                        "-S",
                        "-pidfile",
                        pidFile.toString()),
                30);
        for (int i = 0; i < 100; i++) {
            try (Socket probe = new Socket("127.0.0.1", port)) {
                return new GlobusServer(pidFile, port);
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        throw new IllegalStateException("globus-gridftp-server did not listen on " + port);
    }

    /** @return {@code ftp://127.0.0.1:PORT} (append an absolute path) */
    String url() {
        return "ftp://127.0.0.1:" + port;
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
