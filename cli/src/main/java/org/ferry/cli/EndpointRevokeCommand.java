package org.ferry.cli;

import org.ferry.cli.api.FerryApiClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

/**
 * {@code ferry endpoint revoke NAME}: {@code POST /v0.10/endpoint/{name}/revoke}, revokes a personal
 * endpoint's agent (cut off at once, its certificate refused from then on); prints the API's
 * message (text), the result document (json) or its code (unix).
 */
@Command(
        name = "revoke",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Revoke a personal endpoint's agent: cut it off now and refuse it from now on.",
        footerHeading = "%nExample:%n",
        footer = "  ferry endpoint revoke laptop")
public final class EndpointRevokeCommand extends ApiCommand {
    @Parameters(index = "0", paramLabel = "NAME", description = "Canonical name or id.")
    private String name;

    /** @return 0 once the agent is revoked */
    @Override
    protected int execute() {
        JsonNode result = client().post("/endpoint/" + FerryApiClient.segment(name) + "/revoke", null);
        ResultPrinter.print(this, result);
        return 0;
    }
}
