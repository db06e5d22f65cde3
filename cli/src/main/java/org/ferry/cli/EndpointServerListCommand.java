package org.ferry.cli;

import java.util.Map;
import org.ferry.cli.api.FerryApiClient;
import org.ferry.cli.output.Json;
import org.ferry.cli.output.OutputFormat;
import org.ferry.cli.output.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

/** {@code ferry endpoint server list NAME}: {@code GET /v0.10/endpoint/{name}/server_list} as a table. */
@Command(
        name = "list",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "List an endpoint's servers, in the order they are tried (ID, URI, Subject).",
        footerHeading = "%nExample:%n",
        footer = "  ferry endpoint server list site#grid")
public final class EndpointServerListCommand extends ApiCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "The endpoint's canonical name or id.")
    private String name;

    /** @return 0 once printed */
    @Override
    protected int execute() {
        JsonNode list = client().get("/endpoint/" + FerryApiClient.segment(name) + "/server_list", Map.of());
        if (format() == OutputFormat.JSON) {
            printJson(list);
            return 0;
        }
        Table table = new Table("ID", "URI", "Subject");
        for (JsonNode server : list.path("DATA")) {
            table.row(Json.text(server, "id"), Json.text(server, "uri"), Json.text(server, "subject"));
        }
        table.print(out(), format());
        return 0;
    }
}
