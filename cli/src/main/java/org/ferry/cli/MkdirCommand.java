package org.ferry.cli;

import org.ferry.cli.api.FerryApiClient;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.node.ObjectNode;

/** {@code ferry mkdir ENDPOINT:PATH}: {@code POST /v0.10/operation/endpoint/{name}/mkdir}. */
@Command(
        name = "mkdir",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Make a directory on an endpoint (its parent must exist).",
        footerHeading = "%nExample:%n",
        footer = "  ferry mkdir admin#a:/data/run2")
public final class MkdirCommand extends ApiCommand {
    @Parameters(
            index = "0",
            paramLabel = "ENDPOINT:PATH",
            converter = EndpointPath.Converter.class,
            description = "The directory to make.")
    private EndpointPath target;

    /** @return 0 once made */
    @Override
    protected int execute() {
        if (target.path() == null) {
            throw new CommandLine.ParameterException(spec().commandLine(), "needs ENDPOINT:PATH");
        }
        ObjectNode body = root().mapper().createObjectNode();
        body.put("DATA_TYPE", "mkdir");
        body.put("path", target.path());
        ResultPrinter.print(
                this,
                client().post("/operation/endpoint/" + FerryApiClient.segment(target.endpoint()) + "/mkdir", body));
        return 0;
    }
}
