package org.ferry.bench;

import java.io.IOException;
import java.nio.file.Path;

/**
 * One globus-gridftp-server and one ferry-gridftp (or just one of them), both anonymous and serving
 * {@code /} on loopback, so that the same absolute paths work on either; their pid files and logs
 * are {@code globus-NAME.pid} and {@code ferry-NAME.log} in the logs directory.
 */
final class PlainServers implements AutoCloseable {

    private GlobusServer globus;
    private FerryServer ferry;

    private PlainServers() {}

    /**
     * Starts the servers and waits until they accept connections.
     *
     * @param options the repository root (ferry-gridftp's launcher)
     * @param logs directory for pid files and logs
     * @param which {@code globus}, {@code ferry} or {@code both}
     * @param name the benchmark's part of the log names, e.g. {@code fixed}
     * @return the running servers; close them
     */
    static PlainServers start(BenchOptions options, Path logs, String which, String name)
            throws IOException, InterruptedException {
        PlainServers servers = new PlainServers();
        try {
            if (!which.equals("ferry")) {
                servers.globus = GlobusServer.start(logs.resolve("globus-" + name + ".pid"));
            }
            if (!which.equals("globus")) {
                servers.ferry =
                        FerryServer.start(options.repoRoot(), Path.of("/"), logs.resolve("ferry-" + name + ".log"));
            }
            return servers;
        } catch (IOException | InterruptedException | RuntimeException e) {
            servers.close();
            throw e;
        }
    }

    /** @return the globus server, or null if not started */
    GlobusServer globus() {
        return globus;
    }

    /** @return the Ferry server, or null if not started */
    FerryServer ferry() {
        return ferry;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        if (ferry != null) {
            ferry.close();
        }
        if (globus != null) {
            globus.close();
        }
    }
}
