package org.ferry.cli;

import java.util.Map;
import org.ferry.cli.api.FerryApiClient;
import org.ferry.cli.output.OutputFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code ferry timer show ID}: the timer and its run history (each tick's task, or why it was skipped). */
@Command(
        name = "show",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Show a timer and its runs.",
        footerHeading = "%nExample:%n",
        footer = "  ferry timer show 6f1c9a2e-8d0b-4c1e-9f3a-2b7d5e4c1a00")
public final class TimerShowCommand extends ApiCommand {
    @Parameters(index = "0", paramLabel = "TIMER_ID", description = "The timer's id.")
    private String id;

    /** @return 0 once printed */
    @Override
    protected int execute() {
        String path = "/timer/" + FerryApiClient.segment(id);
        JsonNode timer = client().get(path, Map.of());
        JsonNode runs = client().get(path + "/runs", Map.of());
        if (format() == OutputFormat.JSON) {
            ObjectNode both = (ObjectNode) timer.deepCopy();
            both.set("runs", runs.path("runs"));
            printJson(both);
        } else {
            TimerDocuments.print(timer, runs, out(), format());
        }
        out().flush();
        return 0;
    }
}
