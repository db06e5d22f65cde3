package org.ferry.cli;

import java.util.Map;
import org.ferry.cli.api.FerryApiClient;
import org.ferry.cli.output.Json;
import org.ferry.cli.output.OutputFormat;
import org.ferry.cli.output.Record;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

/** {@code ferry stat ENDPOINT:PATH}: one path's name, type, size, permissions, mtime. */
@Command(
        name = "stat",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Show one file or directory on an endpoint.",
        footerHeading = "%nExample:%n",
        footer = "  ferry stat admin#a:/data/run1/results.h5")
public final class StatCommand extends ApiCommand {
    @Parameters(
            index = "0",
            paramLabel = "ENDPOINT:PATH",
            converter = EndpointPath.Converter.class,
            description = "The path.")
    private EndpointPath target;

    /** @return 0 once printed */
    @Override
    protected int execute() {
        if (target.path() == null) {
            throw new CommandLine.ParameterException(spec().commandLine(), "needs ENDPOINT:PATH");
        }
        JsonNode file = client().get(
                        "/operation/endpoint/" + FerryApiClient.segment(target.endpoint()) + "/stat",
                        Map.of("path", target.path()));
        if (format() == OutputFormat.JSON) {
            printJson(file);
            return 0;
        }
        new Record()
                .field("Name", Json.text(file, "name"))
                .field("Type", Json.text(file, "type"))
                .field("Size", Json.text(file, "size"))
                .field("Permissions", Json.text(file, "permissions"))
                .field("Last Modified", Json.text(file, "last_modified"))
                .print(out(), format());
        return 0;
    }
}
