package org.ferry.cli;

import org.ferry.cli.output.Json;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;

/**
 * The options of a wait for a task's end, shared by {@code ferry wait} and {@code ferry transfer
 * --wait}: {@code --timeout SECONDS}, {@code --polling-interval SECONDS} (default 1) and {@code
 * --timeout-exit-code N} (default 1).
 */
final class TaskWaitOptions {
    @Option(
            names = "--timeout",
            paramLabel = "SECONDS",
            description = "Give up waiting after this many seconds (default: wait for ever).")
    Double timeoutSeconds;

    @Option(
            names = "--polling-interval",
            paramLabel = "SECONDS",
            defaultValue = "1",
            description = "Seconds between polls (default: ${DEFAULT-VALUE}).")
    double pollingIntervalSeconds;

    @Option(
            names = "--timeout-exit-code",
            paramLabel = "N",
            defaultValue = "1",
            description = "Exit code when --timeout passes (default: ${DEFAULT-VALUE}).")
    int timeoutExitCode;

    /** @return whether any of these options was given on the command line */
    boolean given(CommandLine.Model.CommandSpec spec) {
        CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        return parsed.hasMatchedOption("--timeout")
                || parsed.hasMatchedOption("--polling-interval")
                || parsed.hasMatchedOption("--timeout-exit-code");
    }

    /**
     * Waits for the task's end as {@code ferry wait} does: progress on stderr, the final summary on
     * stdout ({@link WaitCommand#printFinal}), a message on stderr on timeout.
     *
     * @param command the command waiting
     * @param taskId the task
     * @return 0 when the task SUCCEEDED, 1 when it ended otherwise, the timeout exit code on timeout
     * @throws CommandLine.ParameterException when the polling interval is not positive or the
     *     timeout negative
     */
    int await(ApiCommand command, String taskId) {
        if (pollingIntervalSeconds <= 0 || (timeoutSeconds != null && timeoutSeconds < 0)) {
            throw new CommandLine.ParameterException(
                    command.spec().commandLine(), "--polling-interval must be > 0 and --timeout >= 0");
        }
        TaskWaiter.Outcome outcome = WaitCommand.await(command, taskId, timeoutSeconds, pollingIntervalSeconds, false);
        if (outcome.timedOut()) {
            JsonNode task = outcome.task();
            command.err()
                    .println("Timed out after " + timeoutSeconds + " s waiting for task " + taskId
                            + (task == null ? "" : " (" + Json.text(task, "status") + ")"));
            command.err().flush();
            return timeoutExitCode;
        }
        WaitCommand.printFinal(command, taskId, outcome.task());
        return outcome.succeeded() ? 0 : ApiCommand.EXIT_ERROR;
    }
}
