package org.ferry.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs an external program to completion with a time limit, for the peers (globus-url-copy, iperf3, rsync). */
final class Command {

    private Command() {}

    /**
     * The outcome of one run.
     *
     * @param exitCode the exit code
     * @param output stdout and stderr together
     * @param elapsedNanos wall-clock time from start to exit
     */
    record Outcome(int exitCode, String output, long elapsedNanos) {
        /** @return the output, or an exception with it if the program failed */
        Outcome requireSuccess(List<String> command) {
            if (exitCode != 0) {
                throw new IllegalStateException(
                        String.join(" ", command) + " exited with " + exitCode + ":\n" + output);
            }
            return this;
        }
    }

    /**
     * Runs {@code command} and waits for it; output goes through a temporary file so that a chatty
     * program never blocks on a full pipe.
     *
     * @param timeoutSeconds the program is killed after this long
     * @return its outcome (it is not checked: see {@link Outcome#requireSuccess})
     */
    static Outcome run(List<String> command, long timeoutSeconds) throws IOException, InterruptedException {
        Path log = Files.createTempFile("ferry-bench-", ".log");
        try {
            long start = System.nanoTime();
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                throw new IllegalStateException(String.join(" ", command) + " did not finish within " + timeoutSeconds
                        + " s:\n" + Files.readString(log, StandardCharsets.UTF_8));
            }
            long elapsed = System.nanoTime() - start;
            return new Outcome(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8), elapsed);
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** Runs {@code command} and fails with its output if it exits non-zero. */
    static Outcome check(List<String> command, long timeoutSeconds) throws IOException, InterruptedException {
        return run(command, timeoutSeconds).requireSuccess(command);
    }
}
