package org.ferry.cli;

import org.ferry.cli.api.FerryApiClient;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ferry rename ENDPOINT:OLD NEW}: {@code POST /v0.10/operation/endpoint/{name}/rename};
 * NEW is a path on the same endpoint (or {@code ENDPOINT:NEW} naming it again).
 */
@Command(
        name = "rename",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Rename (move) a file or directory within an endpoint.",
        footerHeading = "%nExample:%n",
        footer = "  ferry rename admin#a:/data/run1 /data/run1-old")
public final class RenameCommand extends ApiCommand {
    @Parameters(
            index = "0",
            paramLabel = "ENDPOINT:OLD",
            converter = EndpointPath.Converter.class,
            description = "The existing path.")
    private EndpointPath from;

    @Parameters(index = "1", paramLabel = "NEW", description = "Its new path on the same endpoint.")
    private String to;

    /** @return 0 once renamed */
    @Override
    protected int execute() {
        if (from.path() == null) {
            throw new CommandLine.ParameterException(spec().commandLine(), "needs ENDPOINT:OLD");
        }
        String newPath = to;
        if (!to.startsWith("/")) {
            EndpointPath parsed = EndpointPath.parse(to);
            if (!parsed.endpoint().equals(from.endpoint()) || parsed.path() == null) {
                throw new CommandLine.ParameterException(
                        spec().commandLine(), "NEW must be an absolute path on " + from.endpoint());
            }
            newPath = parsed.path();
        }
        ObjectNode body = root().mapper().createObjectNode();
        body.put("DATA_TYPE", "rename");
        body.put("old_path", from.path());
        body.put("new_path", newPath);
        ResultPrinter.print(
                this,
                client().post("/operation/endpoint/" + FerryApiClient.segment(from.endpoint()) + "/rename", body));
        return 0;
    }
}
