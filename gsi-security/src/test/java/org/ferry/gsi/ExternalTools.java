package org.ferry.gsi;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the Globus command-line tools. A missing tool skips the test with a message naming the
 * Debian package, except under {@code CI=true}, where it fails: CI must have the tools.
 */
public final class ExternalTools {

    private ExternalTools() {}

    /** Result of a tool run. */
    public record Result(int exitCode, String output) {}

    /** Skips (or, with CI=true, fails) unless {@code tool} is on the PATH. */
    public static void require(String tool, String debianPackage) {
        boolean found = false;
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                found = true;
                break;
            }
        }
        String message = tool + " not found: install it with 'apt-get install -y " + debianPackage + "'";
        if (!found && "true".equals(System.getenv("CI"))) {
            fail(message + " (CI=true: interop tests must not be skipped)");
        }
        assumeTrue(found, message);
    }

    /** Runs a command with extra environment, stdin closed, stdout+stderr merged, 120 s limit. */
    public static Result run(Map<String, String> env, String input, List<String> command)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        try (var in = p.getOutputStream()) {
            if (input != null) {
                in.write(input.getBytes(StandardCharsets.UTF_8));
            }
        }
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("timed out: " + command);
        }
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    /** As {@link #run(Map, String, List)} without stdin. */
    public static Result run(Map<String, String> env, String... command) throws IOException, InterruptedException {
        return run(env, null, List.of(command));
    }
}
