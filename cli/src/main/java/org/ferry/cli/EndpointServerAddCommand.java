package org.ferry.cli;

import org.ferry.cli.api.FerryApiClient;
import org.ferry.cli.output.Json;
import org.ferry.cli.output.OutputFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ferry endpoint server add NAME --url URL [--subject DN]}:
 * {@code POST /v0.10/endpoint/{name}/server}; prints the new server's id.
 */
@Command(
        name = "add",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Add a GridFTP server to an endpoint (same scheme as its others).",
        footerHeading = "%nExample:%n",
        footer = "  ferry endpoint server add site#grid --url gsiftp://dtn2.example.org:2811")
public final class EndpointServerAddCommand extends ApiCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "The endpoint's canonical name or id.")
    private String name;

    @Option(names = "--url", required = true, paramLabel = "URL", description = "scheme://host[:port] of the server.")
    private String url;

    @Option(
            names = "--subject",
            paramLabel = "DN",
            description = "The DN the server must present, when it is not host/<hostname>.")
    private String subject;

    /** @return 0 once added */
    @Override
    protected int execute() {
        ObjectNode body = root().mapper().createObjectNode();
        body.put("DATA_TYPE", "server");
        body.put("uri", url);
        if (subject != null) {
            body.put("subject", subject);
        }
        JsonNode result = client().post("/endpoint/" + FerryApiClient.segment(name) + "/server", body);
        if (format() == OutputFormat.JSON) {
            printJson(result);
        } else if (format() == OutputFormat.UNIX) {
            out().println(Json.text(result, "id"));
        } else {
            out().println("Message: " + Json.text(result, "message"));
            out().println("Server ID: " + Json.text(result, "id"));
        }
        out().flush();
        return 0;
    }
}
