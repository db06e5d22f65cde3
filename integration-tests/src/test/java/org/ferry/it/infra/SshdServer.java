package org.ferry.it.infra;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.ferry.testing.Prerequisites;

/**
 * A real OpenSSH {@code sshd} on 127.0.0.1 for one test run, with a test user made for the run
 * (Debian's {@code openssh-server}; the recipe of reference/real-parts-recipes.md "OpenSSH, sshftp
 * and the Popen driver"): its own host key, a free port, key authentication only, no PAM. Nothing
 * machine-wide is written: the user's home, its {@code ~/.ssh} (client key, {@code known_hosts}
 * with this sshd's key, a {@code config} for {@code ssh}, which the Globus tools run as that user)
 * and sshd's files live in a per-run directory under /tmp; the user is deleted and the directory
 * removed on {@link #close()}, which also ends every process sshd started. Needs root (useradd,
 * sshd); skips otherwise, fails under CI.
 */
public final class SshdServer implements AutoCloseable {

    /** Where Debian installs the server. */
    public static final Path SSHD = Path.of("/usr/sbin/sshd");

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path dir;
    private final String user;
    private final Path home;
    private final int port;
    private final Process sshd;

    private SshdServer(Path dir, String user, Path home, int port, Process sshd) {
        this.dir = dir;
        this.user = user;
        this.home = home;
        this.port = port;
        this.sshd = sshd;
    }

    /**
     * Skips the calling test without sshd, ssh, ssh-keygen or root; under CI fails instead
     * ({@link Prerequisites}).
     */
    public static void assumeAvailable() {
        Prerequisites.require(
                Files.isExecutable(SSHD)
                        && Files.isExecutable(Path.of("/usr/bin/ssh"))
                        && Files.isExecutable(Path.of("/usr/bin/ssh-keygen")),
                "OpenSSH's sshd, ssh or ssh-keygen missing: apt-get install -y openssh-server openssh-client");
        Prerequisites.require(
                "root".equals(System.getProperty("user.name")), "a test user and sshd need root (useradd, runuser)");
    }

    /**
     * Makes the user and its keys, starts sshd and waits until it accepts connections.
     *
     * @return the running server
     * @throws IOException if a step fails or sshd does not listen within 20 s
     */
    public static SshdServer start() throws IOException {
        assumeAvailable();
        Path dir = Files.createTempDirectory("ferry-sshd-");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        String user = "fsx" + Long.toString(Math.abs(RANDOM.nextLong()), 36).substring(0, 8);
        Path home = dir.resolve("home");
        Process sshd = null;
        try {
            run("useradd", "-M", "-d", home.toString(), "-s", "/bin/sh", user);
            run("usermod", "-p", "*", user); // a locked password makes sshd without PAM refuse even keys
            Path ssh = Files.createDirectories(home.resolve(".ssh"));
            run(
                    "ssh-keygen",
                    "-q",
                    "-t",
                    "ed25519",
                    "-N",
                    "",
                    "-C",
                    user,
                    "-f",
                    ssh.resolve("id_ed25519").toString());
            run(
                    "ssh-keygen",
                    "-q",
                    "-t",
                    "ed25519",
                    "-N",
                    "",
                    "-f",
                    dir.resolve("host_ed25519").toString());
            Files.copy(ssh.resolve("id_ed25519.pub"), dir.resolve("authorized_keys"));
            int port = FreePorts.pick();
            String hostKey = Files.readString(dir.resolve("host_ed25519.pub")).strip();
            Files.writeString(ssh.resolve("known_hosts"), "[127.0.0.1]:" + port + " " + hostKey + "\n");
            Files.writeString(
                    ssh.resolve("config"),
                    "Host *\n  StrictHostKeyChecking yes\n  BatchMode yes\n  UserKnownHostsFile "
                            + ssh.resolve("known_hosts") + "\n  IdentityFile " + ssh.resolve("id_ed25519")
                            + "\n  IdentitiesOnly yes\n");
            run("chown", "-R", user + ":" + user, home.toString());
            Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.createDirectories(Path.of("/run/sshd")); // privilege separation directory
            List<String> command = new ArrayList<>(List.of(
                    SSHD.toString(),
                    "-D",
                    "-f",
                    "/dev/null",
                    "-E",
                    dir.resolve("sshd.log").toString(),
                    "-o",
                    "Port=" + port,
                    "-o",
                    "ListenAddress=127.0.0.1",
                    "-o",
                    "HostKey=" + dir.resolve("host_ed25519"),
                    "-o",
                    "PidFile=" + dir.resolve("sshd.pid"),
                    "-o",
                    "AuthorizedKeysFile=" + dir.resolve("authorized_keys"),
                    "-o",
                    "PasswordAuthentication=no",
                    "-o",
                    "KbdInteractiveAuthentication=no",
                    "-o",
                    "UsePAM=no",
                    "-o",
                    "StrictModes=no",
                    "-o",
                    "AllowUsers=" + user,
                    "-o",
                    "MaxStartups=100",
                    "-o",
                    "MaxSessions=100"));
            sshd = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("sshd.out").toFile())
                    .start();
            awaitListening(port, sshd, dir);
            return new SshdServer(dir, user, home, port, sshd);
        } catch (IOException | RuntimeException e) {
            if (sshd != null) {
                sshd.destroyForcibly();
            }
            runQuietly("userdel", user);
            deleteTree(dir);
            throw e;
        }
    }

    private static void awaitListening(int port, Process sshd, Path dir) throws IOException {
        Instant deadline = Instant.now().plusSeconds(20);
        long pauseMillis = 5;
        while (Instant.now().isBefore(deadline)) {
            if (!sshd.isAlive()) {
                throw new IOException(
                        "sshd exited: " + Files.readString(dir.resolve("sshd.log"), StandardCharsets.UTF_8));
            }
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                return;
            } catch (IOException notYet) {
                sleep(pauseMillis);
                pauseMillis = Math.min(200, pauseMillis * 2);
            }
        }
        throw new IOException("sshd did not listen on " + port + " within 20 s");
    }

    /** @return the test user's name */
    public String user() {
        return user;
    }

    /** @return the test user's home (per run, world-readable) */
    public Path home() {
        return home;
    }

    /** @return the sshd port on 127.0.0.1 */
    public int port() {
        return port;
    }

    /** @return the client private key (OpenSSH format, unencrypted) */
    public Path clientKey() {
        return home.resolve(".ssh/id_ed25519");
    }

    /** @return a known_hosts file with this sshd's host key under {@code [127.0.0.1]:port} */
    public Path knownHosts() {
        return home.resolve(".ssh/known_hosts");
    }

    /** @return sshd's public host key file */
    public Path hostPublicKey() {
        return dir.resolve("host_ed25519.pub");
    }

    /** @return the per-run directory (world-readable), for the test's own files */
    public Path directory() {
        return dir;
    }

    /** @return {@code sshftp://user@127.0.0.1:port} */
    public String sshftpBase() {
        return "sshftp://" + user + "@127.0.0.1:" + port;
    }

    /** @return what sshd logged (for failure messages) */
    public String log() {
        try {
            return Files.readString(dir.resolve("sshd.log"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no sshd log: " + e + ")";
        }
    }

    /**
     * Gives {@code path} to the test user (recursively), so the sessions it runs can write there.
     *
     * @param path a file or directory
     */
    public void chown(Path path) throws IOException {
        run("chown", "-R", user + ":" + user, path.toString());
    }

    /**
     * What a run printed and returned.
     *
     * @param exitCode the exit status
     * @param output standard output and error, interleaved
     */
    public record Run(int exitCode, String output) {}

    /**
     * Runs a program as the test user ({@code runuser}), with the user's home as HOME and extra
     * environment variables; standard input empty.
     *
     * @param environment variables to add
     * @param timeout the run is killed after this long
     * @param command the program and its arguments
     * @return exit status and output
     */
    public Run runAsUser(Map<String, String> environment, Duration timeout, List<String> command)
            throws IOException, InterruptedException {
        return runAsUser(environment, timeout, command, Path.of("/dev/null"));
    }

    /**
     * Runs a program as the test user ({@code runuser}), as {@link #runAsUser(Map, Duration, List)}
     * does, with standard input read from a file (to its end, which the program then sees).
     *
     * @param environment variables to add
     * @param timeout the run is killed after this long
     * @param command the program and its arguments
     * @param input the file the program reads as its standard input
     * @return exit status and output
     */
    public Run runAsUser(Map<String, String> environment, Duration timeout, List<String> command, Path input)
            throws IOException, InterruptedException {
        List<String> full = new ArrayList<>(List.of("runuser", "-u", user, "--", "env", "HOME=" + home));
        environment.forEach((k, v) -> full.add(k + "=" + v));
        full.addAll(command);
        Path output = Files.createTempFile(dir, "run", ".out");
        Process process = new ProcessBuilder(full)
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(input.toFile()))
                .directory(home.toFile())
                .start();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        int status = process.waitFor();
        String text = Files.readString(output, StandardCharsets.UTF_8);
        Files.deleteIfExists(output);
        return new Run(status, text);
    }

    /**
     * Makes ferry-gridftp this user's remote side of sshftp with the one documented line, run as the
     * user: {@code ferry-gridftp enable-sshftp --nonroot [-- OPTIONS]}, which writes
     * {@code ~/.globus/sshftp} (the first remote command globus-url-copy's {@code gridftp-ssh} and
     * Ferry's client try).
     *
     * @param launcher the checkout's {@code bin/ferry-gridftp}
     * @param options options for the sessions, e.g. {@code --popen-allow tar:/bin/tar}
     * @return the script written, {@code ~/.globus/sshftp}
     * @throws IOException if the command fails (with its output) or writes nothing
     */
    public Path enableFerrySshftp(Path launcher, String... options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(launcher.toString(), "enable-sshftp", "--nonroot"));
        if (options.length > 0) {
            command.add("--");
            command.addAll(List.of(options));
        }
        Path script = home.resolve(".globus/sshftp");
        Run enable = runAsUser(Map.of(), Duration.ofSeconds(60), command);
        if (enable.exitCode() != 0 || !Files.isRegularFile(script)) {
            throw new IOException(String.join(" ", command) + " exited with " + enable.exitCode() + " and wrote "
                    + (Files.isRegularFile(script) ? script : "nothing") + ": " + enable.output());
        }
        return script;
    }

    /**
     * Writes globus-gridftp-server's remote command of sshftp, as the user, with the script
     * {@code globus-gridftp-server-enable-sshftp -out FILE} (it execs {@code globus-gridftp-server
     * -ssh}), at {@code ~/globus-sshftp}, where it does not shadow Ferry's {@code ~/.globus/sshftp}:
     * clients name it ({@code GLOBUS_REMOTE_SSHFTP}, {@code SshftpSecurity.withRemoteCommand}).
     *
     * @return the script written
     * @throws IOException if the command fails (with its output)
     */
    public Path enableGlobusSshftp() throws IOException, InterruptedException {
        Path script = home.resolve("globus-sshftp");
        List<String> command = List.of("/usr/sbin/globus-gridftp-server-enable-sshftp", "-out", script.toString());
        Run enable = runAsUser(Map.of(), Duration.ofSeconds(30), command);
        if (enable.exitCode() != 0 || !Files.isRegularFile(script)) {
            throw new IOException(
                    String.join(" ", command) + " exited with " + enable.exitCode() + ": " + enable.output());
        }
        return script;
    }

    /**
     * Kills every process sshd started (the users' sessions and the GridFTP servers their remote
     * commands run) with SIGKILL, as a crash would: their connections drop. sshd itself stays, so a
     * client can log in again.
     *
     * @return how many were killed
     */
    public int killSessions() {
        List<ProcessHandle> sessions = sshd.descendants().toList();
        sessions.forEach(ProcessHandle::destroyForcibly);
        return sessions.size();
    }

    /** Ends sshd and every process it started, deletes the user and the directory. */
    @Override
    public void close() {
        List<ProcessHandle> sessions = sshd.descendants().toList();
        sessions.forEach(ProcessHandle::destroy);
        sshd.destroy();
        try {
            if (!sshd.waitFor(5, TimeUnit.SECONDS)) {
                sshd.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sessions.forEach(ProcessHandle::destroyForcibly);
        runQuietly("userdel", user);
        deleteTree(dir);
    }

    private static void run(String... command) throws IOException {
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (process.waitFor() != 0) {
                throw new IOException(String.join(" ", command) + " failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", command), e);
        }
    }

    private static void runQuietly(String... command) {
        try {
            run(command);
        } catch (IOException e) {
            // best effort while cleaning up
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> all = Files.walk(root)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort
        }
    }
}
