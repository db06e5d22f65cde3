package org.ferry.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;

/**
 * A child process started for a test, its output (stdout and stderr together) written to a log
 * file so that a failed test can show it. Closing it stops the process: SIGTERM, then SIGKILL
 * after 10 seconds.
 */
final class ManagedProcess implements AutoCloseable {

    private final Process process;
    private final Path log;
    private final String name;

    private final long offset;

    private ManagedProcess(String name, Process process, Path log, long offset) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.offset = offset;
    }

    /**
     * Starts {@code command} with extra environment variables.
     *
     * @param name short name for messages
     * @param command program and arguments
     * @param environment variables added to the inherited environment
     * @param log file that receives the process's output
     * @throws IOException if the program cannot be started
     */
    static ManagedProcess start(String name, List<String> command, Map<String, String> environment, Path log)
            throws IOException {
        return start(name, command, environment, Set.of(), log);
    }

    /**
     * Starts {@code command} with extra environment variables and without some inherited ones.
     *
     * @param name short name for messages
     * @param command program and arguments
     * @param environment variables added to the inherited environment
     * @param unset inherited variables the process must not see
     * @param log file that receives the process's output
     * @throws IOException if the program cannot be started
     */
    static ManagedProcess start(
            String name, List<String> command, Map<String, String> environment, Set<String> unset, Path log)
            throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        long offset = Files.exists(log) ? Files.size(log) : 0;
        builder.environment().keySet().removeAll(unset);
        builder.environment().putAll(environment);
        return new ManagedProcess(name, builder.start(), log, offset);
    }

    /**
     * Waits until the output has a line matching {@code pattern}.
     *
     * @return the first match, for reading groups (e.g. a port number)
     * @throws IllegalStateException with the log if the process exits or the timeout passes first
     */
    Matcher awaitOutput(Pattern pattern, Duration timeout) throws IOException, InterruptedException {
        try {
            return Awaitility.await(name + " printing /" + pattern + "/")
                    .atMost(timeout)
                    .pollInterval(Duration.ofMillis(100))
                    .failFast(
                            name + " exited",
                            () -> !process.isAlive()
                                    && !pattern.matcher(output()).find())
                    .until(() -> pattern.matcher(output()), Matcher::find);
        } catch (ConditionTimeoutException | TerminalFailureException e) {
            throw new IllegalStateException(
                    process.isAlive()
                            ? name + " did not print /" + pattern + "/ within " + timeout + ":\n" + output()
                            : name + " exited with " + process.exitValue() + ":\n" + output(),
                    e);
        }
    }

    /** @return the short name given at the start */
    String name() {
        return name;
    }

    /** @return everything the process printed so far (a log appended to: this run's part) */
    String output() throws IOException {
        byte[] all = Files.readAllBytes(log);
        int from = (int) Math.min(offset, all.length);
        return new String(all, from, all.length - from, StandardCharsets.UTF_8);
    }

    /** @return the process id (of the JVM, for a launcher that ends in {@code exec java}) */
    long pid() {
        return process.pid();
    }

    /**
     * Waits for the process to end by itself.
     *
     * @param timeout how long to wait
     * @return its exit status
     * @throws IllegalStateException with the log if it still runs after {@code timeout}
     */
    int awaitExit(Duration timeout) throws IOException, InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException(name + " still runs after " + timeout + ":\n" + output());
        }
        return process.exitValue();
    }

    /** @return true while the process runs */
    boolean isAlive() {
        return process.isAlive();
    }

    /** Kills the process with SIGKILL ({@link Process#destroyForcibly} on Unix) and waits for it to end. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
