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
 * {@code ferry events TASK_ID [--errors]}: {@code GET /v0.10/task/{id}/event_list}, newest
 * first, as a table Time, Code, Is Error, Description, Details.
 */
@Command(
    name = "events",
    mixinStandardHelpOptions = true,
    versionProvider = FerryVersion.class,
    description = "Show a task's events (progress, faults), e.g.: ferry events 6f1c... --errors")
public final class EventsCommand extends ApiCommand {
  @Parameters(index = "0", paramLabel = "TASK_ID", description = "A task's id.")
  private String taskId;

  @Option(names = "--errors", description = "Only error events (faults).")
  private boolean errorsOnly;

  @Option(names = "--limit", paramLabel = "N", defaultValue = "100",
      description = "At most N events, newest first (default: ${DEFAULT-VALUE}).")
  private int limit;

  /** @return 0 once printed */
  @Override
  protected int execute() {
    Map<String, Object> query = new LinkedHashMap<>();
    query.put("limit", limit);
    query.put("filter", errorsOnly ? "is_error:1" : null);
    JsonNode list = client().get(
        "/task/" + FerryApiClient.segment(taskId) + "/event_list", query);
    if (format() == OutputFormat.JSON) {
      printJson(list);
      return 0;
    }
    Table table = new Table("Time", "Code", "Is Error", "Description", "Details");
    for (JsonNode event : list.path("DATA")) {
      table.row(Json.text(event, "time"), Json.text(event, "code"), Json.text(event, "is_error"),
          Json.text(event, "description"), oneLine(Json.text(event, "details")));
    }
    table.print(out(), format());
    return 0;
  }

  private static String oneLine(String text) {
    // Details may hold a server's multi-line reply; a table row must stay one line.
    return text.strip().replaceAll("\\s*\\R\\s*", " ");
  }
}
