package org.ferry.cli;

import java.io.Console;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.ferry.cli.output.Json;
import org.ferry.cli.output.OutputFormat;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ferry login [--username U] [--password-stdin] [--expires-in 30d]}: asks for a user name
 * and password, makes an access token with them ({@code POST /v0.10/access_token} with HTTP
 * Basic), and stores it in {@code $FERRY_HOME/cli-token} (mode 600, the token's id on the second
 * line for {@code ferry logout}). Later commands send it.
 */
@Command(
        name = "login",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Log in with your user name and password; stores an access token in FERRY_HOME (mode 600).",
        footerHeading = "%nExamples:%n",
        footer = {"  ferry login", "  printf '%%s\\n' \"$PW\" | ferry login --username alice --password-stdin"})
public final class LoginCommand extends ApiCommand {
    @Option(names = "--username", paramLabel = "NAME", description = "Your user name (asked when not given).")
    private String username;

    @Option(names = "--password-stdin", description = "Read the password from the first line of standard input.")
    private boolean passwordStdin;

    @Option(
            names = "--expires-in",
            paramLabel = "DURATION",
            defaultValue = "30d",
            converter = TimeArguments.DurationConverter.class,
            description = "How long the token works (default: ${DEFAULT-VALUE}).")
    private Duration expiresIn;

    /** @return 0 once the token is stored */
    @Override
    protected int execute() {
        Console console = System.console();
        String name = username;
        if (name == null) {
            if (console == null) {
                throw usage("no terminal to ask for the user name: use --username");
            }
            name = console.readLine("Username: ");
            if (name == null || name.isBlank()) {
                throw usage("no user name given");
            }
        }
        String password;
        if (passwordStdin) {
            password = EndpointAddCommand.readLine(root().environment());
        } else {
            if (console == null) {
                throw usage("no terminal to ask for the password: use --password-stdin");
            }
            char[] typed = console.readPassword("Password: ");
            password = typed == null ? "" : new String(typed);
        }
        ObjectNode body = root().mapper().createObjectNode();
        body.put("DATA_TYPE", "access_token");
        body.put("description", "ferry login on " + host());
        body.put("expires_in", expiresIn.toSeconds());
        JsonNode token = client().withPassword(name.trim(), password).post("/access_token", body);
        Path file = root().tokenSource().loginFile();
        write(file, Json.text(token, "token") + "\n" + Json.text(token, "id") + "\n");
        if (format() == OutputFormat.JSON) {
            ObjectNode shown = (ObjectNode) token.deepCopy();
            shown.remove("token"); // the secret stays in the file
            printJson(shown);
        } else if (format() == OutputFormat.UNIX) {
            out().println(Json.text(token, "username"));
        } else {
            out().println("Logged in as " + Json.text(token, "username") + "; token stored in " + file + " (expires "
                    + Json.text(token, "expires_time") + ")");
        }
        out().flush();
        return 0;
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "this machine";
        }
    }

    /** Writes a file readable by its owner only (created mode 600, never readable by others). */
    static void write(Path file, String content) {
        try {
            Files.createDirectories(file.getParent());
            Files.deleteIfExists(file);
            if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
                Files.createFile(
                        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            }
            Files.writeString(
                    file,
                    content,
                    StandardCharsets.US_ASCII,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the token file " + file, e);
        }
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec().commandLine(), message);
    }
}
