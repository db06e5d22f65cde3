package org.ferry.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.ferry.cli.api.FerryApiClient;
import org.ferry.cli.output.Json;
import org.ferry.cli.output.OutputFormat;
import org.ferry.cli.output.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

/**
 * {@code ferry ls ENDPOINT[:PATH] [-l] [-a] [--filter GLOB]}:
 * {@code GET /v0.10/operation/endpoint/{name}/ls}.
 *
 * <p>Text: one name per line, directories with a trailing {@code /} (as globus-cli); with
 * {@code -l} a table Permissions, Size, Last Modified, Type, Filename. Unix: the same without
 * headers, tab-separated. Json: the file_list document. Names starting with {@code .} are shown
 * only with {@code -a}.
 */
@Command(
        name = "ls",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "List a directory on an endpoint.",
        footerHeading = "%nExamples:%n",
        footer = {"  ferry ls admin#a:/data -l", "  ferry ls admin#a:/data --filter '*.h5'"})
public final class LsCommand extends ApiCommand {
    @Parameters(
            index = "0",
            paramLabel = "ENDPOINT[:PATH]",
            converter = EndpointPath.Converter.class,
            description = "Endpoint name and directory (default: the endpoint's default directory, else /).")
    private EndpointPath target;

    @Option(
            names = {"-l", "--long"},
            description = "Long form: permissions, size, mtime, type.")
    private boolean longForm;

    @Option(
            names = {"-a", "--all"},
            description = "Show hidden names (starting with .).")
    private boolean all;

    @Option(names = "--filter", paramLabel = "GLOB", description = "Only names matching GLOB (* ? [] [!]).")
    private String filter;

    /** @return 0 once the listing is printed */
    @Override
    protected int execute() {
        Map<String, Object> query = new LinkedHashMap<>();
        query.put("path", target.path());
        query.put("show_hidden", all ? 1 : 0);
        query.put("filter", filter == null ? null : "name:~" + filter);
        JsonNode listing =
                client().get("/operation/endpoint/" + FerryApiClient.segment(target.endpoint()) + "/ls", query);
        if (format() == OutputFormat.JSON) {
            printJson(listing);
            return 0;
        }
        if (!longForm) {
            for (JsonNode file : listing.path("DATA")) {
                String name = Json.text(file, "name");
                out().println("dir".equals(Json.text(file, "type")) ? name + "/" : name);
            }
            out().flush();
            return 0;
        }
        Table table = new Table("Permissions", "Size", "Last Modified", "Type", "Filename");
        for (JsonNode file : listing.path("DATA")) {
            table.row(
                    Json.text(file, "permissions"),
                    Json.text(file, "size"),
                    Json.text(file, "last_modified"),
                    Json.text(file, "type"),
                    Json.text(file, "name"));
        }
        table.print(out(), format());
        return 0;
    }
}
