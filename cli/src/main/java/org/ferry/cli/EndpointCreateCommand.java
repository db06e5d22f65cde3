package org.ferry.cli;

import org.ferry.cli.output.OutputFormat;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ferry endpoint create --personal NAME [--description TEXT]}: {@code POST /v0.10/endpoint}
 * with {@code is_globus_connect: true}, a personal endpoint (Ferry Connect, docs/connect.md); prints
 * the endpoint and its agent's one-time setup key, which the API shows this once (text: a record
 * and what to run on the machine; json: the endpoint document with
 * {@code globus_connect_setup_key}; unix: {@code key<TAB>value} lines).
 */
@Command(
        name = "create",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Create a personal endpoint: a machine behind a firewall that runs ferry-connect.",
        footerHeading = "%nExample:%n",
        footer = {
            "  ferry endpoint create --personal laptop",
            "  # then, on the laptop: ferry-connect setup fc1-... --dir ~/data && ferry-connect start"
        })
public final class EndpointCreateCommand extends ApiCommand {
    @Option(
            names = "--personal",
            required = true,
            description = "A personal endpoint served by ferry-connect (the only kind create makes;"
                    + " ferry endpoint add registers a GridFTP server).")
    private boolean personal;

    @Parameters(index = "0", paramLabel = "NAME", description = "Its name: NAME or OWNER#NAME (OWNER is you).")
    private String name;

    @Option(names = "--description", paramLabel = "TEXT", description = "What the endpoint is.")
    private String description;

    /** @return 0 once the endpoint is created */
    @Override
    protected int execute() {
        if (!personal) {
            throw new CommandLine.ParameterException(
                    spec().commandLine(), "create makes personal endpoints: --personal");
        }
        ObjectNode body = root().mapper().createObjectNode();
        body.put("DATA_TYPE", "endpoint");
        body.put(name.contains("#") ? "canonical_name" : "display_name", name);
        body.put("is_globus_connect", true);
        if (description != null) {
            body.put("description", description);
        }
        JsonNode endpoint = client().post("/endpoint", body);
        String key = endpoint.path("globus_connect_setup_key").asString();
        if (format() == OutputFormat.JSON) {
            printJson(endpoint);
            return 0;
        }
        EndpointDocuments.record(endpoint).field("Setup Key", key).print(out(), format());
        if (format() == OutputFormat.TEXT) {
            out().println();
            out().println("The setup key is shown this once; it works once. On the machine to share, as yourself:");
            out().println("  ferry-connect setup " + key + " --dir PATH   # or --read-only-dir PATH; repeat for more");
            out().println("  ferry-connect start");
        }
        return 0;
    }
}
