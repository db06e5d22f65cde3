package org.ferry.mover.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A user of the real Globus command line tools (test-environment.md; globus-url-copy(1),
 * 5.1): a certificate and key from a {@link GsiTestPki} in {@code usercert.pem}/{@code userkey.pem},
 * and a proxy made from them by the real {@code grid-proxy-init} ({@code X509_CERT_DIR},
 * {@code X509_USER_CERT}, {@code X509_USER_KEY}, {@code X509_USER_PROXY}). Other programs run with
 * {@code X509_CERT_DIR} and {@code X509_USER_PROXY} only, so the proxy is the one credential they
 * can use: given {@code X509_USER_CERT}/{@code X509_USER_KEY} too, globus-url-copy may log in with
 * the certificate itself (it did with an expired proxy), and a test would not know what it tested.
 */
public final class GlobusUser {

    /** How long one tool run may take before the test fails, in seconds. */
    public static final int RUN_TIMEOUT_SECONDS = 60;

    /**
     * A finished tool run.
     *
     * @param exitCode the exit status
     * @param output standard output and error, interleaved
     */
    public record Result(int exitCode, String output) {}

    private final Map<String, String> environment;
    private final Map<String, String> proxyInitEnvironment;

    private GlobusUser(Map<String, String> environment, Map<String, String> proxyInitEnvironment) {
        this.environment = environment;
        this.proxyInitEnvironment = proxyInitEnvironment;
    }

    /**
     * Skips the calling test when {@code tool} is not installed; fails it instead under
     * {@code CI=true}, where interop tests must not be skipped.
     *
     * @param tool the program name in /usr/bin or /usr/sbin
     * @param pkg the Debian package that has it
     */
    public static void require(String tool, String pkg) {
        boolean found = Files.isExecutable(Path.of("/usr/bin", tool)) || Files.isExecutable(Path.of("/usr/sbin", tool));
        String message = tool + " not found: install it with 'apt-get install -y " + pkg + "'";
        if (!found && "true".equals(System.getenv("CI"))) {
            fail(message + " (CI=true: interop tests must not be skipped)");
        }
        Assumptions.assumeTrue(found, message);
    }

    /**
     * Issues the user's certificate, writes it to {@code dir}, and runs {@code grid-proxy-init -q}
     * (an RFC 3820 impersonation proxy, 12 h, in {@code dir/proxy}). Skips the test without
     * globus-url-copy or grid-proxy-init.
     *
     * @param pki the CA, whose trust directory becomes {@code X509_CERT_DIR}
     * @param cn the user's CN
     * @param dir where the files go
     * @return the user, with a proxy
     * @throws Exception if the certificate cannot be issued or written, or grid-proxy-init not run
     */
    public static GlobusUser create(GsiTestPki pki, String cn, Path dir) throws Exception {
        require("globus-url-copy", "globus-gass-copy-progs");
        require("grid-proxy-init", "globus-proxy-utils");
        Files.createDirectories(dir);
        GsiTestPki.writePemFiles(pki.user(cn), dir.resolve("usercert.pem"), dir.resolve("userkey.pem"));
        Map<String, String> tools = Map.of(
                "X509_CERT_DIR",
                pki.trustDirectory().toString(),
                "X509_USER_PROXY",
                dir.resolve("proxy").toString());
        Map<String, String> proxyInit = new HashMap<>(tools);
        proxyInit.put("X509_USER_CERT", dir.resolve("usercert.pem").toString());
        proxyInit.put("X509_USER_KEY", dir.resolve("userkey.pem").toString());
        GlobusUser user = new GlobusUser(tools, Map.copyOf(proxyInit));
        user.proxyInit();
        return user;
    }

    /**
     * Replaces the proxy: {@code grid-proxy-init -q options...}, asserting it succeeds.
     *
     * @param options e.g. {@code -limited}, {@code -old}
     * @throws IOException if the tool cannot be started
     * @throws InterruptedException if interrupted while waiting
     */
    public void proxyInit(String... options) throws IOException, InterruptedException {
        String[] command = new String[options.length + 2];
        command[0] = "grid-proxy-init";
        command[1] = "-q";
        System.arraycopy(options, 0, command, 2, options.length);
        Result proxy = run(proxyInitEnvironment, command);
        assertThat(proxy.exitCode()).as(proxy.output()).isZero();
    }

    /**
     * Runs a program with this user's proxy ({@code X509_USER_PROXY}, {@code X509_CERT_DIR}), standard input closed; fails
     * the test if it runs longer than {@value #RUN_TIMEOUT_SECONDS} s.
     *
     * @param command program and arguments
     * @return exit status and output
     * @throws IOException if the program cannot be started
     * @throws InterruptedException if interrupted while waiting
     */
    public Result run(String... command) throws IOException, InterruptedException {
        return run(environment, command);
    }

    private static Result run(Map<String, String> environment, String... command)
            throws IOException, InterruptedException {
        // output to a file, not a pipe read to its end first: that read would outlast the timeout
        Path output = Files.createTempFile("globus-run", ".out");
        try {
            ProcessBuilder pb =
                    new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
            pb.environment().keySet().removeAll(List.of("X509_USER_CERT", "X509_USER_KEY"));
            pb.environment().putAll(environment);
            Process p = pb.start();
            p.getOutputStream().close();
            if (!p.waitFor(RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail("timed out after " + RUN_TIMEOUT_SECONDS + " s: " + List.of(command) + "\n"
                        + Files.readString(output, StandardCharsets.UTF_8));
            }
            return new Result(p.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(output);
        }
    }
}
