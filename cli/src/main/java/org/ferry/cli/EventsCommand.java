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
 * {@code ferry events TASK_ID [--errors] [--limit N]}: {@code GET /v0.10/task/{id}/event_list},
 * newest first, as a table Time, Code, Is Error, Description, Details.
 *
 * <p>Without {@code --limit} it pages through all events (a long task has thousands of
 * progress events, and the first one, STARTED, is the last page's), and {@code -F json} prints
 * one event_list document holding them all.
 */
@Command(
        name = "events",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Show a task's events (progress, faults), newest first.",
        footerHeading = "%nExample:%n",
        footer = "  ferry events 6f1c9a2e-8d0b-4c1e-9f3a-2b7d5e4c1a00 --errors")
public final class EventsCommand extends ApiCommand {
    @Parameters(index = "0", paramLabel = "TASK_ID", description = "A task's id.")
    private String taskId;

    @Option(names = "--errors", description = "Only error events (faults).")
    private boolean errorsOnly;

    /** Events asked for per request when paging; the API's default page size. */
    static final int PAGE_SIZE = 100;

    @Option(names = "--limit", paramLabel = "N", description = "At most N events, newest first (default: all).")
    private Integer limit;

    /** @return 0 once printed */
    @Override
    protected int execute() {
        JsonNode list = limit != null ? page(limit, 0) : allPages();
        if (format() == OutputFormat.JSON) {
            printJson(list);
            return 0;
        }
        Table table = new Table("Time", "Code", "Is Error", "Description", "Details");
        for (JsonNode event : list.path("DATA")) {
            table.row(
                    Json.text(event, "time"),
                    Json.text(event, "code"),
                    Json.text(event, "is_error"),
                    Json.text(event, "description"),
                    oneLine(Json.text(event, "details")));
        }
        table.print(out(), format());
        return 0;
    }

    private JsonNode page(int size, int offset) {
        Map<String, Object> query = new LinkedHashMap<>();
        query.put("limit", size);
        query.put("offset", offset == 0 ? null : offset);
        query.put("filter", errorsOnly ? "is_error:1" : null);
        return client().get("/task/" + FerryApiClient.segment(taskId) + "/event_list", query);
    }

    private JsonNode allPages() {
        JsonNode first = page(PAGE_SIZE, 0);
        ObjectNode merged = first.isObject()
                ? (ObjectNode) first.deepCopy()
                : root().mapper().createObjectNode();
        ArrayNode events = merged.putArray("DATA");
        first.path("DATA").forEach(events::add);
        int received = first.path("DATA").size();
        long total = first.path("total").asLong(-1);
        // Stop at a short page or at the announced total, whichever the API gives.
        while (received == PAGE_SIZE && (total < 0 || events.size() < total)) {
            JsonNode next = page(PAGE_SIZE, events.size());
            next.path("DATA").forEach(events::add);
            received = next.path("DATA").size();
        }
        merged.put("length", events.size());
        merged.put("limit", events.size());
        merged.put("offset", 0);
        return merged;
    }

    private static String oneLine(String text) {
        // Details may hold a server's multi-line reply; a table row must stay one line.
        return text.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
