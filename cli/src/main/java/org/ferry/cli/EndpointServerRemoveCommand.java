package org.ferry.cli;

import org.ferry.cli.api.FerryApiClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code ferry endpoint server remove NAME SERVER_ID}: {@code DELETE /v0.10/endpoint/{name}/server/{id}}. */
@Command(
        name = "remove",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Remove one of an endpoint's servers (not its last).",
        footerHeading = "%nExample:%n",
        footer = "  ferry endpoint server remove site#grid 42")
public final class EndpointServerRemoveCommand extends ApiCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "The endpoint's canonical name or id.")
    private String name;

    @Parameters(index = "1", paramLabel = "SERVER_ID", description = "The server's id (endpoint server list).")
    private long serverId;

    /** @return 0 once removed */
    @Override
    protected int execute() {
        ResultPrinter.print(this, client().delete("/endpoint/" + FerryApiClient.segment(name) + "/server/" + serverId));
        return 0;
    }
}
