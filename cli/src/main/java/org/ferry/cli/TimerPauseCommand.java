package org.ferry.cli;

import org.ferry.cli.api.FerryApiClient;
import org.ferry.cli.output.OutputFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

/** {@code ferry timer pause ID}. */
@Command(
        name = "pause",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Pause a timer: no tick fires until it is resumed.",
        footerHeading = "%nExample:%n",
        footer = "  ferry timer pause 6f1c9a2e-8d0b-4c1e-9f3a-2b7d5e4c1a00")
public final class TimerPauseCommand extends ApiCommand {
    @Parameters(index = "0", paramLabel = "TIMER_ID", description = "The timer's id.")
    private String id;

    /** @return 0 once done */
    @Override
    protected int execute() {
        JsonNode timer = client().post("/timer/" + FerryApiClient.segment(id) + "/pause", null);
        if (format() == OutputFormat.JSON) {
            printJson(timer);
        } else {
            TimerDocuments.record(timer).print(out(), format());
        }
        return 0;
    }
}
