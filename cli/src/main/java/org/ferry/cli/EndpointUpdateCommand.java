package org.ferry.cli;

import org.ferry.cli.api.FerryApiClient;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.node.ObjectNode;

/** {@code ferry endpoint update NAME [options]}: {@code PUT /v0.10/endpoint/{name}} with the fields given. */
@Command(
        name = "update",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Change an endpoint of yours: only the options given change.",
        footerHeading = "%nExample:%n",
        footer = "  ferry endpoint update admin#a --url ftp://127.0.0.1:2911 --description 'lab server'")
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
        if (body.size() == 1) {
            throw new CommandLine.ParameterException(spec().commandLine(), "nothing to change: give an option");
        }
        ResultPrinter.print(this, client().put("/endpoint/" + FerryApiClient.segment(name), body));
        return 0;
    }

    private static void put(ObjectNode body, String field, String value) {
        if (value != null) {
            body.put(field, value);
        }
    }
}
