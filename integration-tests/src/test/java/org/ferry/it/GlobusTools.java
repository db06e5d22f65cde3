package org.ferry.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.ferry.testing.Prerequisites;

/**
 * The Globus Toolkit programs from Debian ({@code globus-gass-copy-progs},
 * {@code globus-gridftp-server-progs}, {@code globus-proxy-utils}) as test peers. Where they are missing the tests are skipped,
 * except under CI ({@code CI=true}), where {@code .ci/run} installs them and their absence fails.
 * The server itself is started with mover-netty's {@link org.ferry.mover.client.GlobusGridFtpServer}
 * (its test-jar), the one harness both modules use.
 */
final class GlobusTools {

    static final Path GLOBUS_URL_COPY = Path.of("/usr/bin/globus-url-copy");
    static final Path GLOBUS_GRIDFTP_SERVER = Path.of("/usr/sbin/globus-gridftp-server");
    static final Path GRID_PROXY_INIT = Path.of("/usr/bin/grid-proxy-init");
    static final Path MYPROXY_SERVER = Path.of("/usr/sbin/myproxy-server");
    static final Path MYPROXY_INIT = Path.of("/usr/bin/myproxy-init");

    private GlobusTools() {}

    /** Skips the calling test when the Globus tools are absent outside CI. */
    static void assumeInstalled() {
        Prerequisites.require(
                Files.isExecutable(GLOBUS_URL_COPY) && Files.isExecutable(GLOBUS_GRIDFTP_SERVER),
                "globus-url-copy / globus-gridftp-server not installed");
    }

    /** Skips the calling test when grid-proxy-init or globus-url-copy is absent outside CI. */
    static void assumeGsiInstalled() {
        assumeInstalled();
        Prerequisites.require(
                Files.isExecutable(GRID_PROXY_INIT), "grid-proxy-init not installed (globus-proxy-utils)");
    }

    /** Skips the calling test when myproxy-server or myproxy-init is absent outside CI. */
    static void assumeMyProxyInstalled() {
        Prerequisites.require(
                Files.isExecutable(MYPROXY_SERVER) && Files.isExecutable(MYPROXY_INIT),
                "myproxy-server / myproxy-init not installed (myproxy-server, myproxy)");
    }

    /**
     * What one tool run printed and returned.
     *
     * @param exitCode the exit status
     * @param output standard output and error, interleaved
     */
    record Run(int exitCode, String output) {}

    /**
     * Runs a program, standard input closed.
     *
     * @param environment variables added to the inherited environment
     * @param timeoutSeconds the run is killed after this long
     * @param command program and arguments
     * @return exit status and output
     */
    static Run run(Map<String, String> environment, long timeoutSeconds, List<String> command)
            throws IOException, InterruptedException {
        return run(environment, timeoutSeconds, null, command);
    }

    /**
     * Runs a program with {@code stdin} on its standard input (e.g. a passphrase for
     * {@code myproxy-init -S}).
     *
     * @param environment variables added to the inherited environment
     * @param timeoutSeconds the run is killed after this long
     * @param stdin the input, or null for none
     * @param command program and arguments
     * @return exit status and output
     */
    static Run run(Map<String, String> environment, long timeoutSeconds, String stdin, List<String> command)
            throws IOException, InterruptedException {
        // output to a file, not a pipe read to its end first: that read would outlast the timeout
        Path output = Files.createTempFile("globus-run", ".out");
        Path input = Files.createTempFile("globus-run", ".in");
        try {
            Files.writeString(input, stdin == null ? "" : stdin);
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .redirectInput(input.toFile());
            builder.environment().putAll(environment);
            Process process = builder.start();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            return new Run(process.waitFor(), Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(input);
            Files.deleteIfExists(output);
        }
    }

    /**
     * Starts {@code globus-url-copy args...} in the background, its output (stdout and stderr,
     * with {@code -dbg} the control channel dialogue) going to {@code log}.
     *
     * @return the running process; the caller waits for it or kills it
     */
    static Process startUrlCopy(Path log, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(GLOBUS_URL_COPY.toString());
        command.addAll(List.of(args));
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    /**
     * Runs {@code globus-url-copy args...} and fails with its output if it exits non-zero.
     *
     * @param timeoutSeconds the run is killed after this long
     * @return combined output
     */
    static String urlCopy(long timeoutSeconds, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(GLOBUS_URL_COPY.toString());
        command.addAll(List.of(args));
        Run run = run(Map.of(), timeoutSeconds, command);
        if (run.exitCode() != 0) {
            throw new AssertionError(
                    "globus-url-copy " + String.join(" ", args) + " failed (" + run.exitCode() + "):\n" + run.output());
        }
        return run.output();
    }
}
