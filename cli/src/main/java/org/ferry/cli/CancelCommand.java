package org.ferry.cli;

import org.ferry.cli.api.FerryApiClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

/**
 * {@code ferry cancel TASK_ID}: {@code POST /v0.10/task/{id}/cancel}; prints the API's message
 * ({@code Canceled}, or {@code TaskComplete} for a task that had already ended: both exit 0).
 */
@Command(
        name = "cancel",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Cancel a task, e.g.: ferry cancel 6f1c...")
public final class CancelCommand extends ApiCommand {
    @Parameters(index = "0", paramLabel = "TASK_ID", description = "A task's id.")
    private String taskId;

    /** @return 0 once the API answered */
    @Override
    protected int execute() {
        JsonNode result = client().post("/task/" + FerryApiClient.segment(taskId) + "/cancel", null);
        ResultPrinter.print(this, result);
        return 0;
    }
}
