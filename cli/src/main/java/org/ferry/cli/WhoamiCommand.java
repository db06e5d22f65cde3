package org.ferry.cli;

import java.util.Map;
import org.ferry.cli.output.Json;
import org.ferry.cli.output.OutputFormat;
import org.ferry.cli.output.Record;
import picocli.CommandLine.Command;
import tools.jackson.databind.JsonNode;

/** {@code ferry whoami}: {@code GET /v0.10/me}: your user name, role, and where the token came from. */
@Command(
        name = "whoami",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Show who the API takes you for, and where your token came from.",
        footerHeading = "%nExample:%n",
        footer = "  ferry whoami")
public final class WhoamiCommand extends ApiCommand {

    /** @return 0 once printed */
    @Override
    protected int execute() {
        JsonNode me = client().get("/me", Map.of());
        if (format() == OutputFormat.JSON) {
            printJson(me);
        } else if (format() == OutputFormat.UNIX) {
            out().println(Json.text(me, "username"));
            out().flush();
        } else {
            new Record()
                    .field("Username", Json.text(me, "username"))
                    .field("Role", Json.text(me, "role"))
                    .field("Authenticated By", Json.text(me, "authentication"))
                    .field("Subject", Json.text(me, "subject"))
                    .field("Token From", root().tokenSource().origin())
                    .field("API", root().apiUrl())
                    .print(out(), format());
        }
        return 0;
    }
}
