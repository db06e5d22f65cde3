package org.ferry.cli;

import java.util.Map;
import org.ferry.cli.output.Json;
import org.ferry.cli.output.OutputFormat;
import org.ferry.cli.output.Table;
import picocli.CommandLine.Command;
import tools.jackson.databind.JsonNode;

/** {@code ferry timer list}: your timers (an admin's: everybody's). */
@Command(
        name = "list",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "List your timers.",
        footerHeading = "%nExample:%n",
        footer = "  ferry timer list")
public final class TimerListCommand extends ApiCommand {

    /** @return 0 once printed */
    @Override
    protected int execute() {
        JsonNode list = client().get("/timer", Map.of());
        if (format() == OutputFormat.JSON) {
            printJson(list);
            return 0;
        }
        Table table = new Table("Timer ID", "Name", "Status", "Schedule", "Next Run", "Runs");
        for (JsonNode timer : list.path("timers")) {
            table.row(
                    Json.text(timer, "job_id"),
                    Json.text(timer, "name"),
                    Json.text(timer, "status"),
                    TimerDocuments.schedule(timer.path("schedule")),
                    Json.text(timer, "next_run"),
                    Json.text(timer, "number_of_runs"));
        }
        table.print(out(), format());
        return 0;
    }
}
