package org.ferry.cli;

import org.ferry.cli.api.FerryApiClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

/**
 * {@code ferry endpoint remove NAME}: {@code DELETE /v0.10/endpoint/{name}}; prints the API's
 * message (text), the result document (json) or its code (unix).
 */
@Command(
        name = "remove",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Remove an endpoint.",
        footerHeading = "%nExample:%n",
        footer = "  ferry endpoint remove admin#a")
public final class EndpointRemoveCommand extends ApiCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "Canonical name or id.")
    private String name;

    /** @return 0 once the endpoint is deleted */
    @Override
    protected int execute() {
        JsonNode result = client().delete("/endpoint/" + FerryApiClient.segment(name));
        ResultPrinter.print(this, result);
        return 0;
    }
}
