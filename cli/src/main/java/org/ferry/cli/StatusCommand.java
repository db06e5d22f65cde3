package org.ferry.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.ferry.cli.api.FerryApiClient;
import org.ferry.cli.output.Json;
import org.ferry.cli.output.OutputFormat;
import org.ferry.cli.output.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

/**
 * {@code ferry status [TASK_ID]}: without an id, your recent tasks ({@code GET
 * /v0.10/task_list}) as a table Task ID, Status, Label, Source, Destination, Files, Bytes; with
 * an id, that task's fields ({@code GET /v0.10/task/{id}}) as a record.
 */
@Command(
        name = "status",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Show your recent tasks (an admin: everybody's), or one task.",
        footerHeading = "%nExamples:%n",
        footer = {"  ferry status --filter-status ACTIVE", "  ferry status 6f1c9a2e-8d0b-4c1e-9f3a-2b7d5e4c1a00"})
public final class StatusCommand extends ApiCommand {
    @Parameters(index = "0", arity = "0..1", paramLabel = "TASK_ID", description = "A task's id.")
    private String taskId;

    @Option(
            names = "--limit",
            paramLabel = "N",
            defaultValue = "10",
            description = "List at most N tasks, newest first (default: ${DEFAULT-VALUE}, max 1000).")
    private int limit;

    @Option(
            names = "--filter-status",
            paramLabel = "STATUS",
            split = ",",
            description = "List only tasks in these states, e.g. ACTIVE,FAILED.")
    private String[] statuses;

    /** @return 0 once printed */
    @Override
    protected int execute() {
        if (taskId != null) {
            JsonNode task = client().get("/task/" + FerryApiClient.segment(taskId), Map.of());
            if (format() == OutputFormat.JSON) {
                printJson(task);
            } else {
                TaskDocuments.record(task).print(out(), format());
            }
            return 0;
        }
        Map<String, Object> query = new LinkedHashMap<>();
        query.put("limit", limit);
        if (statuses != null && statuses.length > 0) {
            query.put("filter", "status:" + String.join(",", statuses));
        }
        JsonNode list = client().get("/task_list", query);
        if (format() == OutputFormat.JSON) {
            printJson(list);
            return 0;
        }
        Table table =
                new Table("Task ID", "Type", "Status", "Owner", "Label", "Source", "Destination", "Files", "Bytes");
        for (JsonNode task : list.path("DATA")) {
            table.row(
                    Json.text(task, "task_id"),
                    Json.text(task, "type"),
                    Json.text(task, "status"),
                    Json.text(task, "owner_string"),
                    Json.text(task, "label"),
                    Json.text(task, "source_endpoint"),
                    Json.text(task, "destination_endpoint"),
                    Json.number(task, "files_transferred") + "/" + Json.number(task, "files"),
                    Json.text(task, "bytes_transferred"));
        }
        table.print(out(), format());
        return 0;
    }
}
