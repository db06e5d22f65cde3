package org.ferry.bench;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The packaged {@code ferry-gridftp}, started by {@code bin/ferry-gridftp} (its class data sharing
 * archive and JIT settings included) as a separate process,
 * anonymous, serving one root on 127.0.0.1: the same process a site would run, so that its heap can
 * be read with {@code jcmd} and its CPU is not shared with the benchmark's JVM heap.
 */
final class FerryServer implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("Server listening at [^:\\s]+:(\\d+)");

    private final Process process;
    private final int port;
    private final Path pidFile;
    private final String host;

    private FerryServer(Process process, int port, Path pidFile, String host) {
        this.pidFile = pidFile;
        this.process = process;
        this.port = port;
        this.host = host;
    }

    /**
     * Starts the server and waits until it prints its port.
     *
     * @param repoRoot repository root (the jar is {@code mover-netty/target/mover-netty-*-all.jar})
     * @param root directory to serve
     * @param log file for the server's output
     */
    static FerryServer start(Path repoRoot, Path root, Path log) throws IOException, InterruptedException {
        return start(repoRoot, root, log, null);
    }

    /**
     * Starts the server on a host of a {@link NamespaceHosts} (bound to its address), or on
     * 127.0.0.1, and waits until it prints its port.
     *
     * @param repoRoot repository root (the jar is {@code mover-netty/target/mover-netty-*-all.jar})
     * @param root directory to serve
     * @param log file for the server's output
     * @param on the host to run on, or null for this one's loopback
     */
    static FerryServer start(Path repoRoot, Path root, Path log, NamespaceHosts.Host on)
            throws IOException, InterruptedException {
        return start(repoRoot, root, log, on, List.of());
    }

    /**
     * Like {@link #start(Path, Path, Path, NamespaceHosts.Host)}, with more flags.
     *
     * @param flags further ferry-gridftp flags, e.g. {@code --multicast}
     */
    static FerryServer start(Path repoRoot, Path root, Path log, NamespaceHosts.Host on, List<String> flags)
            throws IOException, InterruptedException {
        jar(repoRoot); // fails early with what to build
        String host = on == null ? "127.0.0.1" : on.address();
        // bin/ferry-gridftp, as a site runs it: with the build's class data sharing archive and JIT settings
        List<String> command = new ArrayList<>(List.of(
                repoRoot.resolve("bin").resolve("ferry-gridftp").toString(),
                "--port",
                "0",
                "--bind",
                host,
                "--root",
                root.toString(),
                "--anonymous"));
        command.addAll(flags);
        if (on != null) {
            command = on.exec(command);
        }
        Files.createDirectories(log.getParent());
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        // beside the log, for bench/run to stop it should this run be killed before close()
        Path pidFile = pidFile(log);
        Files.writeString(pidFile, Long.toString(process.pid()));
        for (int i = 0; i < 600; i++) {
            Matcher matcher = LISTENING.matcher(Files.readString(log, StandardCharsets.UTF_8));
            if (matcher.find()) {
                return new FerryServer(process, Integer.parseInt(matcher.group(1)), pidFile, host);
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("ferry-gridftp exited:\n" + Files.readString(log));
            }
            Thread.sleep(100);
        }
        process.destroyForcibly();
        throw new IllegalStateException("ferry-gridftp did not start:\n" + Files.readString(log));
    }

    private static Path jar(Path repoRoot) throws IOException {
        Path target = repoRoot.resolve("mover-netty").resolve("target");
        try (Stream<Path> files = Files.list(target)) {
            return files.filter(p -> p.getFileName().toString().endsWith("-all.jar"))
                    .findFirst()
                    .orElseThrow(() -> new IllegalStateException(
                            "no *-all.jar in " + target + ": run ./mvnw -B -q package -DskipTests first"));
        }
    }

    /** @return the control channel port */
    int port() {
        return port;
    }

    /** @return the server's process id, for jcmd */
    long pid() {
        return process.pid();
    }

    /** @return {@code ftp://anonymous:bench@HOST:PORT}, HOST 127.0.0.1 or the namespace host's address */
    String url() {
        return "ftp://anonymous:bench@" + host + ":" + port;
    }

    /** @return true while the process runs */
    boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() throws InterruptedException, IOException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        Files.deleteIfExists(pidFile);
    }

    /** @return {@code NAME.pid} beside {@code NAME.log} */
    private static Path pidFile(Path log) {
        String name = log.getFileName().toString();
        return log.resolveSibling(name.replaceFirst("\\.log$", "") + ".pid");
    }

    /** @return a free port on 127.0.0.1 at the time of the call, for peers that need one named */
    static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0)) {
            return probe.getLocalPort();
        }
    }
}
