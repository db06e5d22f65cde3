package org.ferry.cli;

import java.time.Duration;
import org.ferry.cli.output.Json;
import org.ferry.cli.output.OutputFormat;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

/**
 * {@code ferry wait TASK_ID [--timeout S] [--polling-interval S] [--timeout-exit-code N]}:
 * polls the task until it ends.
 *
 * <p>Progress goes to stderr: a bar with files, bytes, rate and ETA redrawn in place on an
 * interactive terminal (a console and no {@code CI} variable), else plain lines at most every 5
 * seconds. At the end stdout gets, in text, {@code Task <id> SUCCEEDED: 40/40 files, 1.2 GiB,
 * 85.3 MiB/s, 0 faults} (plus {@code Fatal Error: CODE: description} when it has one); unix the
 * final status alone; json the final task document. Exit code 0 only when the task ends
 * SUCCEEDED, 1 when it ends otherwise; on timeout {@code --timeout-exit-code} (default 1) with a
 * message on stderr.
 */
@Command(
        name = "wait",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = {
            "Wait for a task to end, showing its progress (files, bytes, rate, ETA) on stderr.",
            "Exit code 0 when it SUCCEEDED, 1 when it FAILED; on timeout --timeout-exit-code."
        },
        footerHeading = "%nExample:%n",
        footer = "  ferry wait 6f1c9a2e-8d0b-4c1e-9f3a-2b7d5e4c1a00 --timeout 600")
public final class WaitCommand extends ApiCommand {
    /** The least time between two plain progress lines, so CI logs stay short. */
    static final Duration PLAIN_LINE_INTERVAL = Duration.ofSeconds(5);

    @Parameters(index = "0", paramLabel = "TASK_ID", description = "A task's id.")
    private String taskId;

    @Mixin
    private TaskWaitOptions waiting;

    /** @return 0 when the task SUCCEEDED, 1 when it FAILED, the timeout exit code on timeout */
    @Override
    protected int execute() {
        return waiting.await(this, taskId);
    }

    /**
     * Waits with the progress view the terminal calls for.
     *
     * @param command the command waiting
     * @param taskId the task
     * @param timeoutSeconds null for no timeout
     * @param pollSeconds seconds between polls
     * @param quiet no progress at all
     * @return the outcome
     */
    static TaskWaiter.Outcome await(
            ApiCommand command, String taskId, Double timeoutSeconds, double pollSeconds, boolean quiet) {
        ProgressView view = quiet
                ? ProgressView.NONE
                : command.root().environment().interactive()
                        ? new ProgressBar(command.err(), System::nanoTime)
                        : new ProgressLines(command.err(), PLAIN_LINE_INTERVAL, System::nanoTime);
        try {
            return new TaskWaiter(command.client(), command.err(), view).await(taskId, timeoutSeconds, pollSeconds);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandLine.ExecutionException(command.spec().commandLine(), "interrupted while waiting", e);
        }
    }

    /** Prints the ended task: text a summary line (and the fatal error), unix the status, json the document. */
    static void printFinal(ApiCommand command, String taskId, JsonNode task) {
        TaskProgress progress = TaskProgress.of(task);
        if (command.format() == OutputFormat.JSON) {
            command.printJson(task);
            return;
        }
        if (command.format() == OutputFormat.UNIX) {
            command.out().println(progress.status());
        } else {
            command.out().println("Task " + taskId + " " + progress.status() + ": " + progress.figures());
            JsonNode fatal = task.path("fatal_error");
            if (fatal.isObject()) {
                command.out()
                        .println("Fatal Error: " + Json.text(fatal, "code") + ": " + Json.text(fatal, "description"));
            }
        }
        command.out().flush();
    }
}
