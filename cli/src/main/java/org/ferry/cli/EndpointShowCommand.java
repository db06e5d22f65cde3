package org.ferry.cli;

import org.ferry.cli.api.FerryApiClient;
import org.ferry.cli.output.OutputFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

/** {@code ferry endpoint show NAME}: {@code GET /v0.10/endpoint/{name}}, printed as a record. */
@Command(
        name = "show",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Show one endpoint.",
        footerHeading = "%nExample:%n",
        footer = "  ferry endpoint show admin#a")
public final class EndpointShowCommand extends ApiCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "Canonical name or id.")
    private String name;

    /** @return 0 once the endpoint is printed */
    @Override
    protected int execute() {
        JsonNode endpoint = client().get("/endpoint/" + FerryApiClient.segment(name), java.util.Map.of());
        if (format() == OutputFormat.JSON) {
            printJson(endpoint);
        } else {
            EndpointDocuments.record(endpoint).print(out(), format());
        }
        return 0;
    }
}
