package org.ferry.it;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A {@code ferry-gridftp} server process serving one root directory on 127.0.0.1: anonymous, or
 * GSI with its material named by options only.
 */
final class FerryGridFtpProcess implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("Server listening at [^:\\s]+:(\\d+)");

    /** The variables that would otherwise give ferry-gridftp its GSI material (the OpenSSL hashed CA directory with Globus signing_policy files). */
    static final Set<String> GSI_VARIABLES =
            Set.of("X509_USER_CERT", "X509_USER_KEY", "X509_CERT_DIR", "GRIDMAP", "X509_USER_PROXY");

    private final ManagedProcess process;
    private final int port;

    private FerryGridFtpProcess(ManagedProcess process, int port) {
        this.process = process;
        this.port = port;
    }

    /**
     * Starts the server on an ephemeral port, anonymous logins only, and waits until it listens.
     *
     * @param root directory to serve
     * @param log file for the server's output
     */
    static FerryGridFtpProcess start(Launchers launchers, Path root, Path log)
            throws IOException, InterruptedException {
        return start(launchers, root, log, 0);
    }

    /**
     * Starts the server on {@code port} (0: an ephemeral one) and waits until it listens.
     *
     * @param root directory to serve
     * @param log file for the server's output
     * @param port control port, e.g. the port of a killed predecessor that clients reconnect to
     * @param options more {@code ferry-gridftp} options, e.g. {@code --marker-interval 0.2}
     */
    static FerryGridFtpProcess start(Launchers launchers, Path root, Path log, int port, String... options)
            throws IOException, InterruptedException {
        List<String> all = new ArrayList<>(List.of("--anonymous"));
        all.addAll(List.of(options));
        return start(launchers, root, log, port, all);
    }

    /**
     * Starts the server on an ephemeral port with GSI logins only (the options imply {@code --gsi}),
     * in an environment stripped of {@link #GSI_VARIABLES}, so that the options alone decide.
     *
     * @param root directory to serve
     * @param log file for the server's output
     * @param hostCertificate {@code --host-cert}
     * @param hostKey {@code --host-key}
     * @param caDirectory {@code --ca-dir}
     * @param gridMap {@code --gridmap}
     */
    static FerryGridFtpProcess startGsi(
            Launchers launchers,
            Path root,
            Path log,
            Path hostCertificate,
            Path hostKey,
            Path caDirectory,
            Path gridMap)
            throws IOException, InterruptedException {
        return start(
                launchers,
                root,
                log,
                0,
                List.of(
                        "--host-cert",
                        hostCertificate.toString(),
                        "--host-key",
                        hostKey.toString(),
                        "--ca-dir",
                        caDirectory.toString(),
                        "--gridmap",
                        gridMap.toString()));
    }

    /**
     * As {@link #startGsi(Launchers, Path, Path, Path, Path, Path, Path)}, with JVM options (given
     * through {@code JAVA_TOOL_OPTIONS}, e.g. a Logback configuration that logs every command the
     * server receives) and more {@code ferry-gridftp} options (e.g. {@code --data-rate-limit}).
     */
    static FerryGridFtpProcess startGsi(
            Launchers launchers,
            Path root,
            Path log,
            Path hostCertificate,
            Path hostKey,
            Path caDirectory,
            Path gridMap,
            String jvmOptions,
            String... options)
            throws IOException, InterruptedException {
        List<String> all = new ArrayList<>(List.of(
                "--host-cert",
                hostCertificate.toString(),
                "--host-key",
                hostKey.toString(),
                "--ca-dir",
                caDirectory.toString(),
                "--gridmap",
                gridMap.toString()));
        all.addAll(List.of(options));
        return start(launchers, root, log, 0, all, jvmOptions);
    }

    private static FerryGridFtpProcess start(Launchers launchers, Path root, Path log, int port, List<String> options)
            throws IOException, InterruptedException {
        return start(launchers, root, log, port, options, null);
    }

    private static FerryGridFtpProcess start(
            Launchers launchers, Path root, Path log, int port, List<String> options, String jvmOptions)
            throws IOException, InterruptedException {
        return launch(
                launchers.ferryGridFtp(),
                root,
                log,
                port,
                options,
                jvmOptions == null ? Map.of() : Map.of("JAVA_TOOL_OPTIONS", jvmOptions));
    }

    /**
     * Starts the server through {@code bin/ferry-gridftp}, as a site runs it (the launcher's JVM
     * settings and class data sharing archive), on an ephemeral port with anonymous logins, and
     * waits until it listens.
     *
     * @param root directory to serve
     * @param log file for the server's output
     * @param environment variables for the launcher, e.g. {@code FERRY_JAVA_OPTS}
     */
    static FerryGridFtpProcess startWithLauncher(
            Launchers launchers, Path root, Path log, Map<String, String> environment)
            throws IOException, InterruptedException {
        return launch(launchers.ferryGridFtpLauncher(), root, log, 0, List.of("--anonymous"), environment);
    }

    /**
     * Starts an anonymous server whose root is a tmpfs of {@code size} mounted in a mount namespace
     * of its own ({@code unshare -m}, private propagation): the mount is seen by this process only
     * and goes away with it, whatever becomes of the test. Root only. The test reads the files
     * through {@link #view} and grows or shrinks the file system with {@link #resize}.
     *
     * @param root an empty directory to mount the tmpfs on (and serve)
     * @param log file for the server's output
     * @param size the tmpfs size, e.g. {@code 100m}
     * @param options more {@code ferry-gridftp} options
     */
    static FerryGridFtpProcess startOnTmpfs(Launchers launchers, Path root, Path log, String size, String... options)
            throws IOException, InterruptedException {
        List<String> program = new ArrayList<>(List.of(
                "unshare",
                "-m",
                "--propagation",
                "private",
                "sh",
                "-c",
                "mount -t tmpfs -o size=\"$1\" ferry-test \"$2\" && shift 2 && exec \"$@\"",
                "sh",
                size,
                root.toString()));
        program.addAll(launchers.ferryGridFtp());
        List<String> all = new ArrayList<>(List.of("--anonymous"));
        all.addAll(List.of(options));
        return launch(program, root, log, 0, all, Map.of());
    }

    /**
     * @param path a path as the server sees it, e.g. its root
     * @return the same path seen from this process, through the server's mount namespace
     *     ({@code /proc/PID/root}): what is on a {@link #startOnTmpfs} tmpfs
     */
    Path view(Path path) {
        return Path.of("/proc", Long.toString(pid()), "root")
                .resolve(path.toString().substring(1));
    }

    /**
     * Grows (or shrinks) a {@link #startOnTmpfs} file system: {@code mount -o remount,size=} inside
     * the server's mount namespace.
     *
     * @param root the mount point given to {@link #startOnTmpfs}
     * @param size the new size, e.g. {@code 400m}
     */
    void resize(Path root, String size) throws IOException, InterruptedException {
        Process remount = new ProcessBuilder(
                        "nsenter",
                        "-t",
                        Long.toString(pid()),
                        "-m",
                        "mount",
                        "-o",
                        "remount,size=" + size,
                        root.toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(remount.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (remount.waitFor() != 0) {
            throw new IOException("remount of " + root + " to " + size + " failed: " + output);
        }
    }

    private static FerryGridFtpProcess launch(
            List<String> program, Path root, Path log, int port, List<String> options, Map<String, String> environment)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(program);
        command.addAll(List.of("--port", Integer.toString(port), "--root", root.toString()));
        command.addAll(options);
        ManagedProcess process = ManagedProcess.start("ferry-gridftp", command, environment, GSI_VARIABLES, log);
        try {
            int listening = Integer.parseInt(
                    process.awaitOutput(LISTENING, Duration.ofSeconds(60)).group(1));
            return new FerryGridFtpProcess(process, listening);
        } catch (RuntimeException | IOException | InterruptedException e) {
            process.close();
            throw e;
        }
    }

    /** @return the server's process id (the JVM's: bin/ferry-gridftp ends in {@code exec java}) */
    long pid() {
        return process.pid();
    }

    /** @return the control channel port */
    int port() {
        return port;
    }

    /** @return {@code gsiftp://localhost:PORT} (localhost: the name in a test host certificate) */
    String gsiUrl() {
        return "gsiftp://localhost:" + port;
    }

    /** @return {@code ftp://127.0.0.1:PORT} */
    String url() {
        return "ftp://127.0.0.1:" + port;
    }

    /** Kills the server with SIGKILL, mid-transfer if one runs: no reply, no cleanup, sockets reset. */
    void kill() throws InterruptedException {
        process.kill();
    }

    /** @return everything the server printed so far */
    String output() throws IOException {
        return process.output();
    }

    @Override
    public void close() throws InterruptedException {
        process.close();
    }
}
