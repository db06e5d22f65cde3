package org.ferry.cli;

import org.ferry.cli.api.FerryApiClient;
import org.ferry.cli.output.OutputFormat;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ferry timer update ID [--name N] [schedule options]}: {@code PATCH /v0.10/timer/{id}}; a
 * new schedule replaces the old one whole and counts from now.
 */
@Command(
        name = "update",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Rename a timer or give it a new schedule.",
        footerHeading = "%nExample:%n",
        footer = "  ferry timer update 6f1c9a2e-8d0b-4c1e-9f3a-2b7d5e4c1a00 --interval 12h --name twice-daily")
public final class TimerUpdateCommand extends ApiCommand {
    @Parameters(index = "0", paramLabel = "TIMER_ID", description = "The timer's id.")
    private String id;

    @Option(names = "--name", paramLabel = "NAME", description = "The new name.")
    private String name;

    @Mixin
    private TimerScheduleOptions schedule;

    /** @return 0 once updated */
    @Override
    protected int execute() {
        ObjectNode request = root().mapper().createObjectNode();
        ObjectNode timer = request.putObject("timer");
        if (name != null) {
            timer.put("name", name);
        }
        if (schedule.given()) {
            try {
                schedule.write(timer.putObject("schedule"));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec().commandLine(), e.getMessage());
            }
        }
        if (timer.isEmpty()) {
            throw new CommandLine.ParameterException(
                    spec().commandLine(), "Nothing to change: give --name or a schedule");
        }
        JsonNode updated = client().patch("/timer/" + FerryApiClient.segment(id), request);
        if (format() == OutputFormat.JSON) {
            printJson(updated);
        } else {
            TimerDocuments.record(updated).print(out(), format());
        }
        return 0;
    }
}
