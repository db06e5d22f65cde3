package org.ferry.cli;

import org.ferry.cli.output.OutputFormat;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ferry timer create SRC DST --interval D | --cron EXPR [options]}: {@code POST /v0.10/timer}
 * with a transfer document each run submits (sync level, mirror, filters, checksums).
 */
@Command(
        name = "create",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        sortOptions = false,
        description = "Create a timer: a transfer submitted as a new task on a schedule.",
        footerHeading = "%nExamples:%n",
        footer = {
            "  ferry timer create -r admin#a:/data admin#b:/mirror --interval 1d --sync-level mtime"
                    + " --delete-destination-extra",
            "  ferry timer create -r admin#a:/out admin#b:/in --cron '0 30 1 * * ?' --time-zone America/Chicago"
        })
public final class TimerCreateCommand extends ApiCommand {
    @Parameters(
            index = "0",
            paramLabel = "SRC",
            converter = EndpointPath.Converter.class,
            description = "Source ENDPOINT:PATH.")
    private EndpointPath source;

    @Parameters(
            index = "1",
            paramLabel = "DST",
            converter = EndpointPath.Converter.class,
            description = "Destination ENDPOINT:PATH.")
    private EndpointPath destination;

    @Option(names = "--name", paramLabel = "NAME", description = "The timer's name (also each run's label).")
    private String name;

    @Mixin
    private TimerScheduleOptions schedule;

    @Option(
            names = {"-r", "--recursive"},
            description = "SRC is a directory: copy its tree each run.")
    private boolean recursive;

    @Mixin
    private TransferOptions options;

    @Option(
            names = "--notify-on",
            paramLabel = "WHEN",
            description = "E-mail the owner about every_run or only on failure (a FAILED or INACTIVE run;"
                    + " the server's default).")
    private String notifyOn;

    /** @return 0 once the timer exists */
    @Override
    protected int execute() {
        if (source.path() == null || destination.path() == null) {
            throw new CommandLine.ParameterException(spec().commandLine(), "SRC and DST need a path: ENDPOINT:PATH");
        }
        ObjectNode request = root().mapper().createObjectNode();
        ObjectNode timer = request.putObject("timer");
        timer.put("timer_type", "transfer");
        timer.put("name", name != null ? name : TimerScheduleOptions.defaultName());
        if (notifyOn != null) {
            timer.put("notify_on", notifyOn);
        }
        try {
            schedule.write(timer.putObject("schedule"));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec().commandLine(), e.getMessage());
        }
        ObjectNode body = timer.putObject("body");
        body.put("DATA_TYPE", "transfer");
        body.put("source_endpoint", source.endpoint());
        body.put("destination_endpoint", destination.endpoint());
        options.write(body);
        ObjectNode item = body.putArray("DATA").addObject();
        item.put("DATA_TYPE", "transfer_item");
        item.put("source_path", source.path());
        item.put("destination_path", destination.path());
        item.put("recursive", recursive);
        JsonNode created = client().post("/timer", request);
        if (format() == OutputFormat.JSON) {
            printJson(created);
        } else {
            TimerDocuments.record(created).print(out(), format());
        }
        return 0;
    }
}
