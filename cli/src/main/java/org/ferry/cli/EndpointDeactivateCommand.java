package org.ferry.cli;

import org.ferry.cli.api.FerryApiClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code ferry endpoint deactivate NAME}: {@code POST /v0.10/endpoint/{name}/deactivate}. */
@Command(
        name = "deactivate",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Delete your credential for a gsiftp:// endpoint; your tasks on it wait INACTIVE until you"
                + " activate it again.",
        footerHeading = "%nExample:%n",
        footer = "  ferry endpoint deactivate admin#a")
public final class EndpointDeactivateCommand extends ApiCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "The endpoint's canonical name or id.")
    private String name;

    /** @return 0 once answered */
    @Override
    protected int execute() {
        ResultPrinter.print(this, client().post("/endpoint/" + FerryApiClient.segment(name) + "/deactivate", null));
        return 0;
    }
}
