package org.ferry.cli;

import java.time.Duration;
import java.util.Map;
import org.ferry.cli.api.FerryApiClient;
import org.ferry.cli.output.Json;
import org.ferry.cli.output.OutputFormat;
import org.ferry.cli.output.Table;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code ferry token create|list|revoke}: your personal access tokens (for scripts, portals). */
@Command(
        name = "token",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Manage your personal access tokens.",
        subcommands = {TokenCommand.Create.class, TokenCommand.ListTokens.class, TokenCommand.Revoke.class},
        footerHeading = "%nExample:%n",
        footer = "  ferry token create --description 'nightly sync' --expires-in 90d")
public final class TokenCommand implements Runnable {
    @Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing required subcommand");
    }

    /** {@code ferry token create}: prints a new token once. */
    @Command(
            name = "create",
            mixinStandardHelpOptions = true,
            description = "Make a token and print it (shown once; only its hash is kept).",
            footerHeading = "%nExample:%n",
            footer = "  export FERRY_TOKEN=$(ferry -F unix token create --expires-in 7d)")
    public static final class Create extends ApiCommand {
        @Option(names = "--description", paramLabel = "TEXT", description = "What it is for.")
        private String description;

        @Option(
                names = "--expires-in",
                paramLabel = "DURATION",
                converter = TimeArguments.DurationConverter.class,
                description = "How long it works, e.g. 30d (default: until revoked).")
        private Duration expiresIn;

        @Override
        protected int execute() {
            ObjectNode body = root().mapper().createObjectNode();
            body.put("DATA_TYPE", "access_token");
            if (description != null) {
                body.put("description", description);
            }
            if (expiresIn != null) {
                body.put("expires_in", expiresIn.toSeconds());
            }
            JsonNode token = client().post("/access_token", body);
            if (format() == OutputFormat.JSON) {
                printJson(token);
            } else if (format() == OutputFormat.UNIX) {
                out().println(Json.text(token, "token"));
            } else {
                out().println("Token ID: " + Json.text(token, "id"));
                out().println("Expires: "
                        + (Json.text(token, "expires_time").isEmpty() ? "never" : Json.text(token, "expires_time")));
                out().println("Token: " + Json.text(token, "token"));
            }
            out().flush();
            return 0;
        }
    }

    /** {@code ferry token list}. */
    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = "List your tokens (never the tokens themselves).",
            footerHeading = "%nExample:%n",
            footer = "  ferry token list")
    public static final class ListTokens extends ApiCommand {
        @Override
        protected int execute() {
            JsonNode list = client().get("/access_token_list", Map.of());
            if (format() == OutputFormat.JSON) {
                printJson(list);
                return 0;
            }
            Table table = new Table("ID", "Description", "Created", "Expires", "Last Used");
            for (JsonNode t : list.path("DATA")) {
                table.row(
                        Json.text(t, "id"),
                        Json.text(t, "description"),
                        Json.text(t, "created_time"),
                        Json.text(t, "expires_time"),
                        Json.text(t, "last_used_time"));
            }
            table.print(out(), format());
            return 0;
        }
    }

    /** {@code ferry token revoke ID}. */
    @Command(
            name = "revoke",
            mixinStandardHelpOptions = true,
            description = "Revoke a token by its id.",
            footerHeading = "%nExample:%n",
            footer = "  ferry token revoke 0b6f...")
    public static final class Revoke extends ApiCommand {
        @Parameters(index = "0", paramLabel = "TOKEN_ID", description = "The token's id (ferry token list).")
        private String id;

        @Override
        protected int execute() {
            ResultPrinter.print(this, client().delete("/access_token/" + FerryApiClient.segment(id)));
            return 0;
        }
    }
}
