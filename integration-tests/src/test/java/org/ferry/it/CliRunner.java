package org.ferry.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the {@code ferry} CLI as a real process, the way a user's shell would, with
 * {@code FERRY_HOME} pointing at the server's home so that the CLI finds the token by itself.
 */
final class CliRunner {

    /** What one CLI run printed and returned. */
    record Result(int exitCode, String stdout, String stderr) {
        /** @return stdout and stderr, for assertion messages */
        String describe() {
            return "exit " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }
    }

    private final Launchers launchers;
    private final FerryServerProcess server;
    private final Path workDir;

    CliRunner(Launchers launchers, FerryServerProcess server, Path workDir) {
        this.launchers = launchers;
        this.server = server;
        this.workDir = workDir;
    }

    /**
     * Runs {@code ferry --api URL args...}.
     *
     * @param timeoutSeconds the run is killed after this long (a hung CLI fails the test)
     */
    Result run(long timeoutSeconds, String... args) throws IOException, InterruptedException {
        return run(timeoutSeconds, java.util.Map.of(), null, args);
    }

    /**
     * Runs {@code ferry --api URL args...} with more environment variables and a standard input.
     *
     * @param timeoutSeconds the run is killed after this long
     * @param environment variables added (e.g. {@code X509_USER_PROXY})
     * @param stdin what the CLI reads on standard input (e.g. a passphrase line), or null for none
     */
    Result run(long timeoutSeconds, java.util.Map<String, String> environment, String stdin, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(launchers.ferryCli());
        command.add("--api");
        command.add(server.apiUrl());
        command.addAll(List.of(args));
        Path out = Files.createTempFile(workDir, "cli", ".out");
        Path err = Files.createTempFile(workDir, "cli", ".err");
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        if (stdin != null) {
            Path in = Files.createTempFile(workDir, "cli", ".in");
            Files.writeString(in, stdin);
            builder.redirectInput(in.toFile());
        }
        builder.environment().put("FERRY_HOME", server.ferryHome().toString());
        builder.environment().remove("FERRY_TOKEN");
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("ferry " + String.join(" ", args) + " did not finish in " + timeoutSeconds
                    + " s; stdout so far:\n" + Files.readString(out));
        }
        return new Result(
                process.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
