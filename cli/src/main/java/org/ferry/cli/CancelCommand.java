package org.ferry.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.ferry.cli.api.FerryApiClient;
import org.ferry.cli.output.Json;
import org.ferry.cli.output.OutputFormat;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

/**
 * {@code ferry cancel TASK_ID | --all}: {@code POST /v0.10/task/{id}/cancel}; with {@code --all}
 * every ACTIVE task of yours, one line per task ({@code <id>: <code>}).
 */
@Command(
        name = "cancel",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Cancel a task, or all your active tasks.",
        footerHeading = "%nExamples:%n",
        footer = {"  ferry cancel 6f1c9a2e-8d0b-4c1e-9f3a-2b7d5e4c1a00", "  ferry cancel --all"})
public final class CancelCommand extends ApiCommand {
    @Parameters(index = "0", arity = "0..1", paramLabel = "TASK_ID", description = "A task's id.")
    private String taskId;

    @Option(names = "--all", description = "Cancel every ACTIVE task of yours.")
    private boolean all;

    /** @return 0 once the API answered */
    @Override
    protected int execute() {
        if ((taskId == null) == !all) {
            throw new CommandLine.ParameterException(spec().commandLine(), "give a TASK_ID or --all");
        }
        if (!all) {
            ResultPrinter.print(this, cancel(taskId));
            return 0;
        }
        String me = Json.text(client().get("/me", Map.of()), "username");
        Map<String, Object> query = new LinkedHashMap<>();
        query.put("filter", "status:ACTIVE,INACTIVE");
        query.put("limit", 1000);
        int count = 0;
        for (JsonNode task : client().get("/task_list", query).path("DATA")) {
            if (!me.equals(Json.text(task, "owner_string"))) {
                continue; // an admin sees every task; --all means one's own
            }
            String id = Json.text(task, "task_id");
            JsonNode result = cancel(id);
            if (format() == OutputFormat.JSON) {
                printJson(result);
            } else {
                out().println(id + (format() == OutputFormat.UNIX ? "\t" : ": ") + Json.text(result, "code"));
            }
            count++;
        }
        if (count == 0 && format() == OutputFormat.TEXT) {
            out().println("No active tasks");
        }
        out().flush();
        return 0;
    }

    private JsonNode cancel(String id) {
        return client().post("/task/" + FerryApiClient.segment(id) + "/cancel", null);
    }
}
