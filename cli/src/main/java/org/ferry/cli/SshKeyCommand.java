package org.ferry.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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

/**
 * {@code ferry ssh-key add|list|remove}: the SSH public keys that sign in to the server's SSH port,
 * where the same {@code ferry} commands run as you ({@code ssh -p 2222 you@server ls site#a:/}).
 */
@Command(
        name = "ssh-key",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Manage the SSH keys that run ferry commands over the server's SSH port.",
        subcommands = {SshKeyCommand.Add.class, SshKeyCommand.ListKeys.class, SshKeyCommand.Remove.class},
        footerHeading = "%nExample:%n",
        footer = {"  ferry ssh-key add ~/.ssh/id_ed25519.pub", "  ssh -p 2222 alice@ferry.example.org status"})
public final class SshKeyCommand implements Runnable {
    @Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing required subcommand");
    }

    /** {@code ferry ssh-key add FILE}: registers a public key (a .pub file, or - for standard input). */
    @Command(
            name = "add",
            mixinStandardHelpOptions = true,
            description = "Register an SSH public key (an OpenSSH .pub file, or - for standard input).",
            footerHeading = "%nExample:%n",
            footer = "  ferry ssh-key add --description laptop ~/.ssh/id_ed25519.pub")
    public static final class Add extends ApiCommand {
        @Parameters(index = "0", paramLabel = "FILE", description = "The public key file (.pub), or - to read it.")
        private String file;

        @Option(names = "--description", paramLabel = "TEXT", description = "What it is (default: the key's comment).")
        private String description;

        @Override
        protected int execute() {
            String line = read(file).strip();
            ObjectNode body = root().mapper().createObjectNode();
            body.put("DATA_TYPE", "ssh_key");
            body.put("public_key", line);
            if (description != null) {
                body.put("description", description);
            }
            JsonNode key = client().post("/ssh_key", body);
            if (format() == OutputFormat.JSON) {
                printJson(key);
            } else if (format() == OutputFormat.UNIX) {
                out().println(Json.text(key, "id") + "\t" + Json.text(key, "fingerprint"));
            } else {
                out().println("SSH key ID: " + Json.text(key, "id"));
                out().println("Fingerprint: " + Json.text(key, "fingerprint"));
            }
            out().flush();
            return 0;
        }

        private String read(String name) {
            try {
                if ("-".equals(name)) {
                    return new String(root().environment().stdin().readAllBytes(), StandardCharsets.UTF_8);
                }
                Path path = root().environment().localFile(name, spec().commandLine());
                if (name.startsWith("~/")) {
                    path = root().environment().userHome().resolve(name.substring(2));
                }
                if (Files.size(path) > 64 * 1024) {
                    throw new CommandLine.ParameterException(
                            spec().commandLine(), "'" + name + "' is too large for a public key file");
                }
                return Files.readString(path, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the public key " + name, e);
            }
        }
    }

    /** {@code ferry ssh-key list}. */
    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = "List your SSH keys.",
            footerHeading = "%nExample:%n",
            footer = "  ferry ssh-key list")
    public static final class ListKeys extends ApiCommand {
        @Override
        protected int execute() {
            JsonNode list = client().get("/ssh_key_list", Map.of());
            if (format() == OutputFormat.JSON) {
                printJson(list);
                return 0;
            }
            Table table = new Table("ID", "Fingerprint", "Description", "Created", "Last Used");
            for (JsonNode k : list.path("DATA")) {
                table.row(
                        Json.text(k, "id"),
                        Json.text(k, "fingerprint"),
                        Json.text(k, "description"),
                        Json.text(k, "created_time"),
                        Json.text(k, "last_used_time"));
            }
            table.print(out(), format());
            return 0;
        }
    }

    /** {@code ferry ssh-key remove ID}. */
    @Command(
            name = "remove",
            mixinStandardHelpOptions = true,
            description = "Remove an SSH key by its id or SHA256: fingerprint.",
            footerHeading = "%nExample:%n",
            footer = "  ferry ssh-key remove SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s")
    public static final class Remove extends ApiCommand {
        @Parameters(index = "0", paramLabel = "KEY", description = "The key's id or fingerprint (ferry ssh-key list).")
        private String id;

        @Override
        protected int execute() {
            String keyId = id;
            if (id.startsWith("SHA256:")) {
                // a fingerprint may hold '/', which a path segment cannot carry: find its id
                keyId = null;
                for (JsonNode k : client().get("/ssh_key_list", Map.of()).path("DATA")) {
                    if (id.equals(Json.text(k, "fingerprint"))) {
                        keyId = Json.text(k, "id");
                    }
                }
                if (keyId == null) {
                    err().println("Error: no SSH key of yours has the fingerprint " + id);
                    err().flush();
                    return EXIT_ERROR;
                }
            }
            ResultPrinter.print(this, client().delete("/ssh_key/" + FerryApiClient.segment(keyId)));
            return 0;
        }
    }
}
