package org.ferry.cli;

import java.util.Map;
import org.ferry.cli.api.FerryApiClient;
import org.ferry.cli.output.Json;
import org.ferry.cli.output.OutputFormat;
import org.ferry.cli.output.Record;
import org.ferry.cli.output.Table;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code ferry user add|list|disable|enable}: accounts, for admins (403 otherwise). */
@Command(
        name = "user",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Manage accounts (admins only).",
        subcommands = {
            UserCommand.Add.class,
            UserCommand.ListUsers.class,
            UserCommand.Disable.class,
            UserCommand.Enable.class
        },
        footerHeading = "%nExample:%n",
        footer = "  printf '%%s\\n' \"$PW\" | ferry user add alice --password-stdin")
public final class UserCommand implements Runnable {
    @Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing required subcommand");
    }

    static Record record(JsonNode user) {
        return new Record()
                .field("Username", Json.text(user, "username"))
                .field("Role", Json.text(user, "role"))
                .field("Disabled", Json.text(user, "disabled"))
                .field("Has Password", Json.text(user, "has_password"))
                .field("Email", Json.text(user, "email"))
                .field("Created", Json.text(user, "created_time"));
    }

    static void print(ApiCommand command, JsonNode user) {
        if (command.format() == OutputFormat.JSON) {
            command.printJson(user);
        } else {
            record(user).print(command.out(), command.format());
        }
    }

    /** {@code ferry user add NAME [--admin] [--password-stdin] [--email ADDRESS]}. */
    @Command(
            name = "add",
            mixinStandardHelpOptions = true,
            description = "Create an account.",
            footerHeading = "%nExample:%n",
            footer = "  printf '%%s\\n' \"$PW\" | ferry user add alice --password-stdin")
    public static final class Add extends ApiCommand {
        @Parameters(index = "0", paramLabel = "NAME", description = "User name.")
        private String name;

        @Option(names = "--admin", description = "Give it the admin role.")
        private boolean admin;

        @Option(names = "--password-stdin", description = "Read its password from standard input (else none).")
        private boolean passwordStdin;

        @Option(
                names = "--email",
                paramLabel = "ADDRESS",
                description = "Its e-mail address: where its tasks' notifications go.")
        private String email;

        @Override
        protected int execute() {
            ObjectNode body = root().mapper().createObjectNode();
            body.put("DATA_TYPE", "user");
            body.put("username", name);
            body.put("role", admin ? "ADMIN" : "USER");
            if (email != null) {
                body.put("email", email);
            }
            if (passwordStdin) {
                body.put("password", EndpointAddCommand.readLine(root().environment()));
            }
            print(this, client().post("/user", body));
            return 0;
        }
    }

    /** {@code ferry user list}. */
    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = "List the accounts.",
            footerHeading = "%nExample:%n",
            footer = "  ferry user list")
    public static final class ListUsers extends ApiCommand {
        @Override
        protected int execute() {
            JsonNode list = client().get("/user_list", Map.of());
            if (format() == OutputFormat.JSON) {
                printJson(list);
                return 0;
            }
            Table table = new Table("Username", "Role", "Disabled", "Has Password");
            for (JsonNode u : list.path("DATA")) {
                table.row(
                        Json.text(u, "username"),
                        Json.text(u, "role"),
                        Json.text(u, "disabled"),
                        Json.text(u, "has_password"));
            }
            table.print(out(), format());
            return 0;
        }
    }

    /** {@code ferry user disable NAME}. */
    @Command(
            name = "disable",
            mixinStandardHelpOptions = true,
            description = "Disable an account: its passwords, tokens and certificates stop working.",
            footerHeading = "%nExample:%n",
            footer = "  ferry user disable alice")
    public static final class Disable extends ApiCommand {
        @Parameters(index = "0", paramLabel = "NAME", description = "User name.")
        private String name;

        @Override
        protected int execute() {
            ObjectNode body = root().mapper().createObjectNode();
            body.put("disabled", true);
            print(this, client().put("/user/" + FerryApiClient.segment(name), body));
            return 0;
        }
    }

    /** {@code ferry user enable NAME}. */
    @Command(
            name = "enable",
            mixinStandardHelpOptions = true,
            description = "Enable a disabled account.",
            footerHeading = "%nExample:%n",
            footer = "  ferry user enable alice")
    public static final class Enable extends ApiCommand {
        @Parameters(index = "0", paramLabel = "NAME", description = "User name.")
        private String name;

        @Override
        protected int execute() {
            ObjectNode body = root().mapper().createObjectNode();
            body.put("disabled", false);
            print(this, client().put("/user/" + FerryApiClient.segment(name), body));
            return 0;
        }
    }
}
