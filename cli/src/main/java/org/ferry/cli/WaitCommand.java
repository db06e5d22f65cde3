package org.ferry.cli;

import java.time.Duration;
import java.util.Map;
import org.ferry.cli.api.ApiException;
import org.ferry.cli.api.ApiUnreachableException;
import org.ferry.cli.api.FerryApiClient;
import org.ferry.cli.output.Json;
import org.ferry.cli.output.OutputFormat;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

/**
 * {@code ferry wait TASK_ID [--timeout S] [--polling-interval S] [--timeout-exit-code N]}:
 * polls {@code GET /v0.10/task/{id}} until the task ends.
 *
 * <p>Progress goes to stderr: a bar redrawn in place on an interactive terminal (a console and
 * no {@code CI} variable), else plain lines at most every 5 seconds. At the end stdout gets, in
 * text, {@code Task <id> SUCCEEDED: 40/40 files, 1.2 GiB, 85.3 MiB/s, 0 faults} (plus
 * {@code Fatal Error: CODE: description} when it has one); unix the final status alone; json
 * the final task document. Exit code 0 only when the task ends SUCCEEDED, 1 when it ends
 * otherwise; on timeout {@code --timeout-exit-code} (default 1) with a message on stderr.
 * Up to {@value #MAX_TRANSIENT_FAILURES} consecutive failed polls (API unreachable or HTTP
 * 5xx) are reported as warnings and retried; more, or any 4xx, end the wait with exit code 1.
 */
@Command(
        name = "wait",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = {
            "Wait for a task to end, showing its progress on stderr, e.g.: ferry wait 6f1c... " + "--timeout 600",
            "Exit code 0 when it SUCCEEDED, 1 when it FAILED; on timeout --timeout-exit-code."
        })
public final class WaitCommand extends ApiCommand {
    /**
     * Consecutive transient failures (API unreachable, HTTP 5xx) tolerated while polling: a wait
     * lasts hours and should outlive a server restart or a proxy hiccup.
     */
    static final int MAX_TRANSIENT_FAILURES = 5;

    /** The least time between two plain progress lines, so CI logs stay short. */
    static final Duration PLAIN_LINE_INTERVAL = Duration.ofSeconds(5);

    @Parameters(index = "0", paramLabel = "TASK_ID", description = "A task's id.")
    private String taskId;

    @Option(
            names = "--timeout",
            paramLabel = "SECONDS",
            description = "Give up waiting after this many seconds (default: wait for ever).")
    private Double timeoutSeconds;

    @Option(
            names = "--polling-interval",
            paramLabel = "SECONDS",
            defaultValue = "1",
            description = "Seconds between polls (default: ${DEFAULT-VALUE}).")
    private double pollingIntervalSeconds;

    @Option(
            names = "--timeout-exit-code",
            paramLabel = "N",
            defaultValue = "1",
            description = "Exit code when --timeout passes (default: ${DEFAULT-VALUE}).")
    private int timeoutExitCode;

    /** @return 0 when the task SUCCEEDED, 1 when it FAILED, the timeout exit code on timeout */
    @Override
    protected int execute() {
        if (pollingIntervalSeconds <= 0 || (timeoutSeconds != null && timeoutSeconds < 0)) {
            throw new CommandLine.ParameterException(
                    spec().commandLine(), "--polling-interval must be > 0 and --timeout >= 0");
        }
        FerryApiClient client = client();
        ProgressView view = root().environment().interactive()
                ? new ProgressBar(err())
                : new ProgressLines(err(), PLAIN_LINE_INTERVAL, System::nanoTime);
        long start = System.nanoTime();
        long timeoutNanos = timeoutSeconds == null ? Long.MAX_VALUE : nanos(timeoutSeconds);
        String path = "/task/" + FerryApiClient.segment(taskId);
        int failures = 0;
        while (true) {
            JsonNode task = null;
            try {
                task = client.get(path, Map.of());
                failures = 0;
            } catch (ApiUnreachableException | ApiException e) {
                if (!isTransient(e) || ++failures > MAX_TRANSIENT_FAILURES) {
                    view.finish();
                    throw e;
                }
                view.finish();
                err().println("Warning: " + e.getMessage() + " (retrying, " + failures + "/" + MAX_TRANSIENT_FAILURES
                        + ")");
                err().flush();
            }
            TaskProgress progress = task == null ? null : TaskProgress.of(task);
            if (progress != null) {
                view.update(progress);
            }
            if (progress != null && progress.ended()) {
                view.finish();
                printFinal(task, progress);
                return "SUCCEEDED".equals(progress.status()) ? 0 : EXIT_ERROR;
            }
            long remaining = timeoutNanos - (System.nanoTime() - start);
            if (remaining <= 0) {
                view.finish();
                err().println("Timed out after " + timeoutSeconds + " s waiting for task " + taskId
                        + (progress == null ? "" : " (" + progress.status() + ")"));
                err().flush();
                return timeoutExitCode;
            }
            sleep(Math.min(nanos(pollingIntervalSeconds), remaining));
        }
    }

    private void printFinal(JsonNode task, TaskProgress progress) {
        if (format() == OutputFormat.JSON) {
            printJson(task);
            return;
        }
        if (format() == OutputFormat.UNIX) {
            out().println(progress.status());
        } else {
            out().println("Task " + taskId + " " + progress.status() + ": " + progress.figures());
            JsonNode fatal = task.path("fatal_error");
            if (fatal.isObject()) {
                out().println("Fatal Error: " + Json.text(fatal, "code") + ": " + Json.text(fatal, "description"));
            }
        }
        out().flush();
    }

    private static boolean isTransient(RuntimeException e) {
        return e instanceof ApiUnreachableException || (e instanceof ApiException api && api.httpStatus() >= 500);
    }

    private static long nanos(double seconds) {
        return (long) (seconds * 1_000_000_000L);
    }

    private void sleep(long nanos) {
        try {
            Thread.sleep(nanos / 1_000_000L, (int) (nanos % 1_000_000L));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommandLine.ExecutionException(spec().commandLine(), "interrupted while waiting", e);
        }
    }
}
