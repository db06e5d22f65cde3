package org.ferry.it;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** A {@code ferry-gridftp} server process serving one root directory on 127.0.0.1, anonymous. */
final class FerryGridFtpProcess implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("Server listening at [^:\\s]+:(\\d+)");

    private final ManagedProcess process;
    private final int port;

    private FerryGridFtpProcess(ManagedProcess process, int port) {
        this.process = process;
        this.port = port;
    }

    /**
     * Starts the server on an ephemeral port and waits until it listens.
     *
     * @param root directory to serve
     * @param log file for the server's output
     */
    static FerryGridFtpProcess start(Launchers launchers, Path root, Path log) throws IOException,
            InterruptedException {
        List<String> command = new ArrayList<>(launchers.ferryGridFtp());
        command.addAll(List.of("--port", "0", "--root", root.toString(), "--anonymous"));
        ManagedProcess process = ManagedProcess.start("ferry-gridftp", command, Map.of(), log);
        try {
            int port = Integer.parseInt(process.awaitOutput(LISTENING, Duration.ofSeconds(60)).group(1));
            return new FerryGridFtpProcess(process, port);
        } catch (RuntimeException | IOException | InterruptedException e) {
            process.close();
            throw e;
        }
    }

    /** @return the control channel port */
    int port() {
        return port;
    }

    /** @return {@code ftp://127.0.0.1:PORT} */
    String url() {
        return "ftp://127.0.0.1:" + port;
    }

    @Override
    public void close() throws InterruptedException {
        process.close();
    }
}
