package org.ferry.cli;

import org.ferry.cli.output.Json;
import org.ferry.cli.output.OutputFormat;
import tools.jackson.databind.JsonNode;

/** Prints a {@code transfer_result}: text as globus-cli, unix the task id alone, json the document. */
final class SubmissionOutput {
    private SubmissionOutput() {}

    /**
     * @param command the command printing it
     * @param result the API's transfer_result
     */
    static void print(ApiCommand command, JsonNode result) {
        if (command.format() == OutputFormat.JSON) {
            command.printJson(result);
            return;
        }
        if (command.format() == OutputFormat.UNIX) {
            command.out().println(Json.text(result, "task_id"));
        } else {
            command.out().println("Message: " + Json.text(result, "message"));
            command.out().println("Task ID: " + Json.text(result, "task_id"));
        }
        command.out().flush();
    }
}
