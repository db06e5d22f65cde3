package org.ferry.cli;

import java.util.Map;
import org.ferry.cli.api.FerryApiClient;
import org.ferry.cli.output.OutputFormat;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ferry endpoint update NAME [options]}: {@code PUT /v0.10/endpoint/{name}} with the fields
 * given; the optimizer limits ({@code --min-concurrency}, {@code --max-concurrency},
 * {@code --max-parallelism}, admins only) go to {@code PUT /v0.10/endpoint/{name}/optimizer_limits},
 * merged with the endpoint's current limits.
 */
@Command(
        name = "update",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Change an endpoint of yours: only the options given change.",
        footerHeading = "%nExample:%n",
        footer = "  ferry endpoint update admin#a --url ftp://127.0.0.1:2911 --description 'lab server'%n"
                + "  ferry endpoint update admin#a --max-concurrency 8 --max-parallelism 4")
public final class EndpointUpdateCommand extends ApiCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "The endpoint's canonical name or id.")
    private String name;

    @Option(names = "--display-name", paramLabel = "NAME", description = "Rename it (the part after #).")
    private String displayName;

    @Option(names = "--url", paramLabel = "URL", description = "Its GridFTP server.")
    private String url;

    @Option(names = "--username", paramLabel = "U", description = "Login user.")
    private String username;

    @Option(names = "--password-stdin", description = "Read a new login password from standard input.")
    private boolean passwordStdin;

    @Option(names = "--description", paramLabel = "TEXT", description = "What the endpoint is.")
    private String description;

    @Option(
            names = "--public",
            negatable = true,
            description = "Let every user see and use it (--no-public: only you).")
    private Boolean isPublic;

    @Option(
            names = "--myproxy-server",
            paramLabel = "HOST[:PORT]",
            description = "For gsiftp://: the MyProxy server users activate it against.")
    private String myProxyServer;

    @Option(
            names = "--myproxy-dn",
            paramLabel = "DN",
            description = "That MyProxy server's DN, when it is not host/<hostname>.")
    private String myProxyDn;

    @Option(names = "--default-directory", paramLabel = "PATH", description = "Where ls starts without a path.")
    private String defaultDirectory;

    @Option(
            names = "--min-concurrency",
            paramLabel = "N",
            description = "Admins: fewest session pairs the optimizer keeps to or from it (0: the default).")
    private Integer minConcurrency;

    @Option(
            names = "--max-concurrency",
            paramLabel = "N",
            description = "Admins: most session pairs to or from it at once, never exceeded (0: the default).")
    private Integer maxConcurrency;

    @Option(
            names = "--max-parallelism",
            paramLabel = "N",
            description = "Admins: most data connections per file to or from it (0: the default).")
    private Integer maxParallelism;

    /** @return 0 once changed */
    @Override
    protected int execute() {
        ObjectNode body = root().mapper().createObjectNode();
        body.put("DATA_TYPE", "endpoint");
        put(body, "display_name", displayName);
        put(body, "url", url);
        put(body, "username", username);
        put(body, "description", description);
        put(body, "default_directory", defaultDirectory);
        put(body, "myproxy_server", myProxyServer);
        put(body, "myproxy_dn", myProxyDn);
        if (isPublic != null) {
            body.put("public", isPublic);
        }
        if (passwordStdin) {
            body.put("password", EndpointAddCommand.readLine(root().environment()));
        }
        boolean limits = minConcurrency != null || maxConcurrency != null || maxParallelism != null;
        if (body.size() == 1 && !limits) {
            throw new CommandLine.ParameterException(spec().commandLine(), "nothing to change: give an option");
        }
        String path = "/endpoint/" + FerryApiClient.segment(name);
        if (body.size() > 1) {
            ResultPrinter.print(this, client().put(path, body));
        }
        if (limits) {
            ObjectNode current = (ObjectNode) client().get(path + "/optimizer_limits", Map.of());
            ObjectNode change = root().mapper().createObjectNode();
            for (String field : new String[] {"min_concurrency", "max_concurrency", "max_parallelism"}) {
                change.set(field, current.get(field));
            }
            limit(change, "min_concurrency", minConcurrency);
            limit(change, "max_concurrency", maxConcurrency);
            limit(change, "max_parallelism", maxParallelism);
            var updated = client().put(path + "/optimizer_limits", change);
            if (format() == OutputFormat.JSON) {
                printJson(updated);
            } else {
                out().println("Optimizer limits: min_concurrency " + shown(updated, "min_concurrency")
                        + ", max_concurrency " + shown(updated, "max_concurrency")
                        + ", max_parallelism " + shown(updated, "max_parallelism"));
            }
        }
        return 0;
    }

    /** Sets a limit the user gave; 0 puts it back to the server's default (null). */
    private static void limit(ObjectNode body, String field, Integer value) {
        if (value == null) {
            return;
        }
        if (value == 0) {
            body.putNull(field);
        } else {
            body.put(field, value);
        }
    }

    private static String shown(tools.jackson.databind.JsonNode document, String field) {
        tools.jackson.databind.JsonNode value = document.get(field);
        return value == null || value.isNull() ? "default" : value.asString();
    }

    private static void put(ObjectNode body, String field, String value) {
        if (value != null) {
            body.put(field, value);
        }
    }
}
