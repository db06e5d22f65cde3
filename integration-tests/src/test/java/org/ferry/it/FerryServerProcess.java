package org.ferry.it;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** A {@code ferry-server} process (REST API, scheduler, embedded mover) on an ephemeral port. */
final class FerryServerProcess implements AutoCloseable {

    private static final Pattern STARTED = Pattern.compile("started on port (\\d+)");

    private final ManagedProcess process;
    private final int port;
    private final Path ferryHome;

    private FerryServerProcess(ManagedProcess process, int port, Path ferryHome) {
        this.process = process;
        this.port = port;
        this.ferryHome = ferryHome;
    }

    /**
     * Starts the server with {@code FERRY_HOME} set and waits until its HTTP port is open.
     *
     * @param ferryHome the server's home (database, token)
     * @param log file for the server's output
     */
    static FerryServerProcess start(Launchers launchers, Path ferryHome, Path log)
            throws IOException, InterruptedException {
        return start(launchers, ferryHome, log, List.of());
    }

    /**
     * Starts the server with {@code FERRY_HOME} set and extra Spring arguments (e.g. a PostgreSQL
     * URL, the Kafka work queue, {@code --ferry.api.marker-page-size=2}), and waits until its HTTP port is open.
     *
     * @param ferryHome the server's home (token; H2 database unless the arguments name another)
     * @param log file for the server's output (appended to, so a restart keeps the earlier run's)
     * @param arguments {@code --name=value} arguments
     */
    static FerryServerProcess start(Launchers launchers, Path ferryHome, Path log, List<String> arguments)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(launchers.ferryServer());
        command.add("--server.port=0");
        command.addAll(arguments);
        ManagedProcess process =
                ManagedProcess.start("ferry-server", command, Map.of("FERRY_HOME", ferryHome.toString()), log);
        try {
            int port = Integer.parseInt(
                    process.awaitOutput(STARTED, Duration.ofSeconds(120)).group(1));
            return new FerryServerProcess(process, port, ferryHome);
        } catch (RuntimeException | IOException | InterruptedException e) {
            process.close();
            throw e;
        }
    }

    /** @return {@code http://127.0.0.1:PORT} */
    String apiUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** @return the server's FERRY_HOME */
    Path ferryHome() {
        return ferryHome;
    }

    /** @return the server's output so far, for failure messages */
    String output() throws IOException {
        return process.output();
    }

    /** Kills the server with SIGKILL (no shutdown hooks run) and waits for it to end. */
    void kill() throws InterruptedException {
        process.kill();
    }

    @Override
    public void close() throws InterruptedException {
        process.close();
    }
}
