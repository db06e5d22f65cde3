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
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ferry details TASK_ID [-t] [--skipped-errors]}: every field of a task, and with
 * {@code -t} the files that arrived ({@code successful_transfers}, all pages) or with
 * {@code --skipped-errors} the paths skipped.
 */
@Command(
        name = "details",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Show every field of a task, or the files it moved (-t) or skipped (--skipped-errors).",
        footerHeading = "%nExamples:%n",
        footer = {
            "  ferry details 6f1c9a2e-8d0b-4c1e-9f3a-2b7d5e4c1a00",
            "  ferry details 6f1c9a2e-8d0b-4c1e-9f3a-2b7d5e4c1a00 -t"
        })
public final class DetailsCommand extends ApiCommand {
    @Parameters(index = "0", paramLabel = "TASK_ID", description = "A task's id.")
    private String taskId;

    @Option(
            names = {"-t", "--successful-transfers"},
            description = "List the files that arrived: source, destination, size.")
    private boolean successful;

    @Option(names = "--skipped-errors", description = "List the source paths skipped because of errors.")
    private boolean skipped;

    /** @return 0 once printed */
    @Override
    protected int execute() {
        String path = "/task/" + FerryApiClient.segment(taskId);
        if (!successful && !skipped) {
            JsonNode task = client().get(path, Map.of());
            if (format() == OutputFormat.JSON) {
                printJson(task);
            } else {
                TaskDocuments.details(task).print(out(), format());
            }
            return 0;
        }
        String resource = successful ? "successful_transfers" : "skipped_errors";
        JsonNode all = allPages(path + "/" + resource, resource);
        if (format() == OutputFormat.JSON) {
            printJson(all);
            return 0;
        }
        Table table = successful
                ? new Table("Source Path", "Destination Path", "Size")
                : new Table("Source Path", "Destination Path", "Error Code");
        for (JsonNode row : all.path("DATA")) {
            table.row(
                    Json.text(row, "source_path"),
                    Json.text(row, "destination_path"),
                    Json.text(row, successful ? "size" : "error_code"));
        }
        table.print(out(), format());
        return 0;
    }

    /** Follows {@code next_marker} to the end; one document with every row. */
    private JsonNode allPages(String path, String dataType) {
        ObjectNode merged = root().mapper().createObjectNode();
        merged.put("DATA_TYPE", dataType);
        ArrayNode rows = merged.putArray("DATA");
        String marker = null;
        do {
            Map<String, Object> query = new LinkedHashMap<>();
            query.put("marker", marker);
            JsonNode page = client().get(path, query);
            page.path("DATA").forEach(rows::add);
            JsonNode next = page.get("next_marker");
            marker = next == null || next.isNull() ? null : next.asString();
        } while (marker != null);
        return merged;
    }
}
