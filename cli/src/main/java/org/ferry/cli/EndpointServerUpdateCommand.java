package org.ferry.cli;

import org.ferry.cli.api.FerryApiClient;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ferry endpoint server update NAME SERVER_ID [--url URL] [--subject DN]}:
 * {@code PUT /v0.10/endpoint/{name}/server/{id}}.
 */
@Command(
        name = "update",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Change one of an endpoint's servers (\"\" as --subject clears it).",
        footerHeading = "%nExample:%n",
        footer = "  ferry endpoint server update site#grid 42 --subject /O=Grid/CN=host/dtn2.example.org")
public final class EndpointServerUpdateCommand extends ApiCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "The endpoint's canonical name or id.")
    private String name;

    @Parameters(index = "1", paramLabel = "SERVER_ID", description = "The server's id (endpoint server list).")
    private long serverId;

    @Option(names = "--url", paramLabel = "URL", description = "scheme://host[:port] of the server.")
    private String url;

    @Option(names = "--subject", paramLabel = "DN", description = "The DN the server must present.")
    private String subject;

    /** @return 0 once changed */
    @Override
    protected int execute() {
        if (url == null && subject == null) {
            throw new CommandLine.ParameterException(
                    spec().commandLine(), "nothing to change: give --url or --subject");
        }
        ObjectNode body = root().mapper().createObjectNode();
        body.put("DATA_TYPE", "server");
        if (url != null) {
            body.put("uri", url);
        }
        if (subject != null) {
            body.put("subject", subject);
        }
        ResultPrinter.print(
                this, client().put("/endpoint/" + FerryApiClient.segment(name) + "/server/" + serverId, body));
        return 0;
    }
}
