package org.ferry.cli;

import org.ferry.cli.api.FerryApiClient;
import org.ferry.cli.output.Json;
import org.ferry.cli.output.OutputFormat;
import org.ferry.cli.output.Record;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

/**
 * {@code ferry endpoint deactivate NAME}: {@code POST /v0.10/endpoint/{name}/deactivate}; the
 * service deletes your credential for the endpoint, and your tasks on it wait INACTIVE until you
 * activate it again.
 */
@Command(
        name = "deactivate",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Delete your credential for an endpoint, e.g.: ferry endpoint deactivate site#grid")
public final class EndpointDeactivateCommand extends ApiCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "Canonical name or id.")
    private String name;

    /** @return 0 once deactivated */
    @Override
    protected int execute() {
        JsonNode result = client().post(
                        "/endpoint/" + FerryApiClient.segment(name) + "/deactivate",
                        root().mapper().createObjectNode());
        if (format() == OutputFormat.JSON) {
            printJson(result);
        } else if (format() == OutputFormat.UNIX) {
            out().println(Json.text(result, "code"));
            out().flush();
        } else {
            new Record().field("Message", Json.text(result, "message")).print(out(), format());
        }
        return 0;
    }
}
