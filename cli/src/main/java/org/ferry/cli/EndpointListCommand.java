package org.ferry.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.ferry.cli.output.Json;
import org.ferry.cli.output.OutputFormat;
import org.ferry.cli.output.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;

/**
 * {@code ferry endpoint list [--filter TEXT] [--limit N]}: {@code GET /v0.10/endpoint_search},
 * printed as a table (ID, Name, URL, Username) or the endpoint_list document.
 */
@Command(
        name = "list",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "List the endpoints you can see: yours and public ones.",
        footerHeading = "%nExamples:%n",
        footer = {"  ferry endpoint list --filter cluster", "  ferry endpoint list --scope my-endpoints"})
public final class EndpointListCommand extends ApiCommand {
    @Option(names = "--filter", paramLabel = "TEXT", description = "Only endpoints whose name contains TEXT.")
    private String filter;

    @Option(
            names = "--scope",
            paramLabel = "SCOPE",
            description = "all (default), my-endpoints, recently-used, in-use, ...")
    private String scope;

    @Option(
            names = "--limit",
            paramLabel = "N",
            defaultValue = "100",
            description = "At most N endpoints (default: ${DEFAULT-VALUE}).")
    private int limit;

    /** @return 0 once the list is printed */
    @Override
    protected int execute() {
        Map<String, Object> query = new LinkedHashMap<>();
        query.put("filter_fulltext", filter);
        query.put("filter_scope", scope);
        query.put("limit", limit);
        JsonNode list = client().get("/endpoint_search", query);
        if (format() == OutputFormat.JSON) {
            printJson(list);
            return 0;
        }
        Table table = new Table("ID", "Name", "URL", "Username", "Public");
        for (JsonNode endpoint : list.path("DATA")) {
            table.row(
                    Json.text(endpoint, "id"),
                    Json.text(endpoint, "canonical_name"),
                    Json.text(endpoint, "url"),
                    Json.text(endpoint, "username"),
                    Json.text(endpoint, "public"));
        }
        table.print(out(), format());
        return 0;
    }
}
