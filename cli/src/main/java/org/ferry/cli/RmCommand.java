package org.ferry.cli;

import org.ferry.cli.output.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

/**
 * {@code ferry rm ENDPOINT:PATH... [-r] [-f]}: deletes and waits, as globus-cli's {@code rm}: a
 * delete task is submitted and followed until it ends; exit 0 when it succeeded, 1 when not
 * (its fatal error on stderr), the {@code --timeout-exit-code} on timeout.
 */
@Command(
        name = "rm",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        sortOptions = false,
        description = "Delete files or directories (-r) on an endpoint and wait until done.",
        footerHeading = "%nExample:%n",
        footer = "  ferry rm -r admin#a:/scratch/run1")
public final class RmCommand extends ApiCommand {
    @Parameters(
            arity = "1..*",
            paramLabel = "ENDPOINT:PATH",
            converter = EndpointPath.Converter.class,
            description = "Paths to delete, all on one endpoint.")
    java.util.List<EndpointPath> targets;

    @Option(
            names = {"-r", "--recursive"},
            description = "Delete directories with their contents.")
    boolean recursive;

    @Option(
            names = {"-f", "--ignore-missing"},
            description = "A missing path is no error.")
    boolean ignoreMissing;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "Give up waiting after this many seconds.")
    Double timeoutSeconds;

    @Option(
            names = "--timeout-exit-code",
            paramLabel = "N",
            defaultValue = "1",
            description = "Exit code when --timeout passes (default: ${DEFAULT-VALUE}).")
    int timeoutExitCode;

    /** @return 0 when the paths are gone */
    @Override
    protected int execute() {
        String endpoint = DeleteCommand.oneEndpoint(spec().commandLine(), targets, true);
        JsonNode result = client().post(
                        "/delete",
                        DeleteCommand.document(
                                root().mapper(),
                                endpoint,
                                targets.stream().map(EndpointPath::path).toList(),
                                recursive,
                                ignoreMissing,
                                null,
                                null,
                                null));
        String taskId = Json.text(result, "task_id");
        TaskWaiter.Outcome outcome = WaitCommand.await(this, taskId, timeoutSeconds, 1, true);
        if (outcome.timedOut()) {
            err().println("Timed out waiting for delete task " + taskId);
            err().flush();
            return timeoutExitCode;
        }
        if (!outcome.succeeded()) {
            JsonNode fatal = outcome.task().path("fatal_error");
            err().println("ferry rm: delete task " + taskId + " failed: " + Json.text(fatal, "code") + ": "
                    + Json.text(fatal, "description"));
            err().flush();
            return EXIT_ERROR;
        }
        WaitCommand.printFinal(this, taskId, outcome.task());
        return 0;
    }
}
