package org.ferry.mover.client;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.ferry.mover.testing.GsiTestPki;
import org.junit.jupiter.api.Assumptions;

/**
 * A real globus-gridftp-server process on 127.0.0.1 for interop tests: anonymous clear-text login
 * ({@code -aa}), an ephemeral port, data connections on loopback. As root the server refuses to map
 * anonymous to root, so it runs the session as the unprivileged {@value #USER} user, created if
 * missing; {@link #chown} hands test files to that user. {@link #startGsi} runs it in GSI mode
 * instead. The server forks one process per control connection ({@link #sessions}), which a test
 * may kill to break a transfer for real. Close it to stop the server. Shared with integration-tests
 * through mover-netty's test-jar.
 */
public final class GlobusGridFtpServer implements AutoCloseable {

    /** Where Debian installs the server. */
    public static final Path BINARY = Paths.get("/usr/sbin/globus-gridftp-server");
    /** The unprivileged account anonymous sessions run as when the tests run as root. */
    public static final String USER = "gsuser";

    private static final Pattern LISTENING = Pattern.compile("Server listening at .*:(\\d+)");

    private final Process process;
    private final int port;
    private final Path root;
    private final List<String> command;
    private final Map<String, String> environment;

    private GlobusGridFtpServer(
            Process process, int port, Path root, List<String> command, Map<String, String> environment) {
        this.process = process;
        this.port = port;
        this.root = root;
        this.command = command;
        this.environment = environment;
    }

    /** @return true if the server binary is installed */
    public static boolean available() {
        return Files.isExecutable(BINARY);
    }

    /** @return true if tests run as root (the server then needs {@code -anonymous-user}) */
    public static boolean runningAsRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /**
     * Starts a server and waits for its "Server listening at host:port" line.
     *
     * @throws IOException if it does not start within 20 s
     */
    public static GlobusGridFtpServer start() throws IOException {
        return start(List.of());
    }

    /**
     * As {@link #start()}, with more options (globus-gridftp-server(8)), e.g.
     * {@code -Z FILE} for a transfer log.
     *
     * @param extraOptions options appended to the command line
     * @throws IOException if it does not start within 20 s
     */
    public static GlobusGridFtpServer start(List<String> extraOptions) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                BINARY.toString(),
                "-aa",
                "-p",
                "0",
                "-control-interface",
                "127.0.0.1",
                "-data-interface",
                "127.0.0.1",
                "-d",
                "error",
                "-disable-usage-stats")); // fork mode: -no-fork serves a single connection, then exits
        command.addAll(extraOptions);
        if (runningAsRoot()) {
            ensureUser();
            command.addAll(List.of("-anonymous-user", USER));
        }
        return launch(command, Map.of(), null);
    }

    /**
     * Starts a server in GSI mode (no {@code -aa}: only AUTH GSSAPI, globus-gridftp-server(8)) as
     * GCT's own test harness does: host credential, trusted CAs and grid-mapfile from
     * {@code X509_USER_CERT}, {@code X509_USER_KEY}, {@code X509_CERT_DIR} and {@code GRIDMAP}, here
     * {@code pki}'s {@code host/localhost} credential and a grid-mapfile mapping {@code userCn} to
     * {@value #USER}. It serves a fresh {@link #root()}, deleted on {@link #close()}. Skips the test
     * without the server or without root (GSI mode setuids to the mapped user); fails it instead
     * under {@code CI=true} when the server is missing.
     *
     * @param pki the CA and host credential
     * @param dir where the credential files and the grid-mapfile go
     * @param userCn the CN of the user allowed in
     * @throws IOException if the files cannot be written or the server does not start within 20 s
     */
    public static GlobusGridFtpServer startGsi(GsiTestPki pki, Path dir, String userCn) throws IOException {
        return startGsi(pki, dir, userCn, List.of());
    }

    /**
     * As {@link #startGsi(GsiTestPki, Path, String)}, with more options (globus-gridftp-server(8)),
     * e.g. {@code -d all -l FILE} for a log of every command the server receives.
     *
     * @param pki the CA and host credential
     * @param dir where the credential files and the grid-mapfile go
     * @param userCn the CN of the user allowed in
     * @param extraOptions options appended to the command line
     * @throws IOException if the files cannot be written or the server does not start within 20 s
     */
    public static GlobusGridFtpServer startGsi(GsiTestPki pki, Path dir, String userCn, List<String> extraOptions)
            throws IOException {
        if (!available() && "true".equals(System.getenv("CI"))) {
            throw new AssertionError(
                    "globus-gridftp-server missing (apt-get install -y globus-gridftp-server-progs); CI=true");
        }
        Assumptions.assumeTrue(
                available(), "globus-gridftp-server not installed: apt-get install -y globus-gridftp-server-progs");
        Assumptions.assumeTrue(runningAsRoot(), "GSI mode setuids to the mapped user: needs root");
        ensureUser();
        // After login the session runs as USER and still reads the CA directory (DCAU handshakes).
        for (Path p = pki.trustDirectory(); p != null; p = p.getParent()) {
            Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(p);
            if (permissions.addAll(Set.of(PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_EXECUTE))) {
                Files.setPosixFilePermissions(p, permissions);
            }
        }
        Files.createDirectories(dir);
        GsiTestPki.writePemFiles(pki.host(), dir.resolve("hostcert.pem"), dir.resolve("hostkey.pem"));
        Files.writeString(dir.resolve("grid-mapfile"), pki.gridMapLine(userCn, USER));
        Path root = createRoot();
        List<String> command = new ArrayList<>(List.of(
                BINARY.toString(),
                "-p",
                "0",
                "-control-interface",
                "127.0.0.1",
                "-data-interface",
                "127.0.0.1",
                "-disable-usage-stats"));
        command.addAll(extraOptions.isEmpty() ? List.of("-d", "error") : extraOptions);
        return launch(
                command,
                Map.of(
                        "X509_CERT_DIR",
                        pki.trustDirectory().toString(),
                        "X509_USER_CERT",
                        dir.resolve("hostcert.pem").toString(),
                        "X509_USER_KEY",
                        dir.resolve("hostkey.pem").toString(),
                        "GRIDMAP",
                        dir.resolve("grid-mapfile").toString()),
                root);
    }

    private static GlobusGridFtpServer launch(List<String> command, Map<String, String> environment, Path root)
            throws IOException {
        return launch(command, environment, root, 0);
    }

    /**
     * @param fixedPort the port given with {@code -p}, or 0 for an ephemeral one: the server prints
     *     "Server listening at host:port" only for an ephemeral port, so a fixed one is waited for
     *     by connecting to it
     */
    private static GlobusGridFtpServer launch(
            List<String> command, Map<String, String> environment, Path root, int fixedPort) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        Process process = builder.start();
        CompletableFuture<Integer> port = new CompletableFuture<>();
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader out = new BufferedReader(
                            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                        String line;
                        while ((line = out.readLine()) != null) {
                            Matcher m = LISTENING.matcher(line);
                            if (m.find()) {
                                port.complete(Integer.parseInt(m.group(1)));
                            } else {
                                System.out.println("[globus-gridftp-server] " + line);
                            }
                        }
                    } catch (IOException e) {
                        port.completeExceptionally(e);
                    }
                    port.completeExceptionally(new IOException("globus-gridftp-server exited before listening"));
                },
                "globus-gridftp-server-output");
        reader.setDaemon(true);
        reader.start();
        if (fixedPort != 0) {
            port.completeAsync(() -> awaitListening(process, fixedPort));
        }
        try {
            return new GlobusGridFtpServer(process, port.get(20, TimeUnit.SECONDS), root, command, environment);
        } catch (Exception e) {
            process.destroyForcibly();
            deleteTree(root);
            throw new IOException("globus-gridftp-server did not start: " + e, e);
        }
    }

    /** Connects to {@code port} until it accepts (the process is listening) or the process ends. */
    private static int awaitListening(Process process, int port) {
        while (process.isAlive()) {
            try (java.net.Socket socket = new java.net.Socket()) {
                socket.connect(new java.net.InetSocketAddress("127.0.0.1", port), 1_000);
                return port;
            } catch (IOException refused) {
                try {
                    Thread.sleep(50); // the next try; the caller's 20 s bound ends the wait
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.util.concurrent.CompletionException(e);
                }
            }
        }
        throw new java.util.concurrent.CompletionException(
                new IOException("globus-gridftp-server exited before listening on " + port));
    }

    private static void ensureUser() throws IOException {
        try {
            if (new ProcessBuilder("id", USER).start().waitFor() != 0) {
                new ProcessBuilder("useradd", "-m", USER).inheritIO().start().waitFor();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted creating " + USER, e);
        }
    }

    /** Gives {@code path} (recursively) to the server's session user and makes directories traversable. */
    public static void chown(Path path) throws IOException {
        if (!runningAsRoot()) {
            return;
        }
        UserPrincipal user =
                path.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(USER);
        try (Stream<Path> all = Files.walk(path)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Files.setOwner(p, user);
                if (Files.isDirectory(p)) {
                    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
                }
            }
        }
    }

    /** @return a fresh directory under /tmp owned by the session user; delete it with {@link #deleteTree} */
    public static Path createRoot() throws IOException {
        Path root = Files.createTempDirectory("ferry-gridftp-test-");
        chown(root);
        return root;
    }

    /** Deletes a directory tree, ignoring failures. */
    public static void deleteTree(Path root) {
        if (root == null) {
            return;
        }
        try (Stream<Path> all = Files.walk(root)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort
        }
    }

    /** @return the control port */
    public int port() {
        return port;
    }

    /** @return the directory a GSI-mode server was started with, owned by {@value #USER}; null in anonymous mode */
    public Path root() {
        return root;
    }

    /** @return {@code ftp://127.0.0.1:port} (anonymous) */
    public GridFtpUrl url() {
        return GridFtpUrl.parse(base());
    }

    /** @return {@code ftp://127.0.0.1:port}, to which an absolute file system path is appended */
    public String base() {
        return "ftp://127.0.0.1:" + port;
    }

    /** @return the processes the server forked for its control connections, one per session */
    public List<ProcessHandle> sessions() {
        return process.toHandle().children().toList();
    }

    /**
     * Kills every session process with SIGKILL, as a crash would: their control and data
     * connections drop mid-command. The listening server stays.
     *
     * @return how many were killed
     */
    public int killSessions() {
        List<ProcessHandle> sessions = sessions();
        sessions.forEach(ProcessHandle::destroyForcibly);
        return sessions.size();
    }

    /**
     * Stops this server as a crash would (SIGKILL to its sessions and to the listener: their
     * connections drop mid-command) and starts the same command line again on the same port, over
     * the same {@link #root()}, which is kept.
     *
     * @return the new server, listening; close it instead of this one
     * @throws IOException if it does not start within 20 s
     */
    public GlobusGridFtpServer restart() throws IOException {
        killSessions();
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted stopping globus-gridftp-server", e);
        }
        List<String> again = new ArrayList<>(command);
        int p = again.indexOf("-p");
        again.set(p + 1, Integer.toString(port));
        GlobusGridFtpServer restarted = launch(again, environment, root, port);
        return restarted;
    }

    @Override
    public void close() {
        sessions().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        deleteTree(root);
    }
}
