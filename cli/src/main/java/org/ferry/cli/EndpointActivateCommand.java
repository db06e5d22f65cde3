package org.ferry.cli;

import org.ferry.cli.api.FerryApiClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code ferry endpoint activate NAME}: {@code POST /v0.10/endpoint/{name}/autoactivate}. Ferry's
 * endpoints log in with their stored login, so the answer is {@code AlreadyActivated}; GSI
 * activation (delegating a proxy) comes with issue 13.
 */
@Command(
        name = "activate",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Activate an endpoint (endpoints with a stored login need none).",
        footerHeading = "%nExample:%n",
        footer = "  ferry endpoint activate admin#a")
public final class EndpointActivateCommand extends ApiCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "The endpoint's canonical name or id.")
    private String name;

    /** @return 0 once answered */
    @Override
    protected int execute() {
        ResultPrinter.print(this, client().post("/endpoint/" + FerryApiClient.segment(name) + "/autoactivate", null));
        return 0;
    }
}
