package org.ferry.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.ferry.cli.output.OutputFormat;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ferry endpoint add NAME --url URL [--username U] [--password P | --password-stdin]
 * [--myproxy-server HOST[:PORT]] [--myproxy-dn DN]}:
 * {@code POST /v0.10/endpoint}, then prints the new endpoint (text: a record; json: the
 * endpoint document; unix: {@code key<TAB>value} lines).
 */
@Command(
        name = "add",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Register an endpoint: a GridFTP server and the login Ferry uses for it.",
        footerHeading = "%nExamples:%n",
        footer = {
            "  ferry endpoint add admin#a --url ftp://127.0.0.1:2811",
            "  echo \"$PW\" | ferry endpoint add alice#cluster --url ftp://dtn.example.org:2811 --username alice --password-stdin",
            "  ferry endpoint add alice#dtn --url sshftp://dtn.example.org --username alice --ssh-key ~/.ssh/ferry_dtn"
        })
public final class EndpointAddCommand extends ApiCommand {
    @Parameters(
            index = "0",
            paramLabel = "NAME",
            description = "Canonical name OWNER#NAME; OWNER must be your user name.")
    private String name;

    @Option(
            names = "--url",
            required = true,
            paramLabel = "URL",
            description = "The endpoint's GridFTP server, e.g. ftp://host:2811 or gsiftp://host:2811.")
    private String url;

    @Option(
            names = "--username",
            paramLabel = "U",
            description = "Login user on the server (the API's default: anonymous).")
    private String username;

    @Option(
            names = "--password",
            paramLabel = "P",
            description = "Login password (visible in the process list; prefer --password-stdin).")
    private String password;

    @Option(names = "--password-stdin", description = "Read the password from the first line of standard input.")
    private boolean passwordStdin;

    @Option(names = "--description", paramLabel = "TEXT", description = "What the endpoint is.")
    private String description;

    @Option(names = "--public", description = "Let every user of the server see and use it (its login too).")
    private boolean isPublic;

    @Option(
            names = "--myproxy-server",
            paramLabel = "HOST[:PORT]",
            description = "For gsiftp://: the MyProxy server users activate it against.")
    private String myProxyServer;

    @Option(
            names = "--myproxy-dn",
            paramLabel = "DN",
            description = "That MyProxy server's DN, when it is not host/<hostname>.")
    private String myProxyDn;

    @Option(names = "--default-directory", paramLabel = "PATH", description = "Where ls starts without a path.")
    private String defaultDirectory;

    @Option(
            names = "--ssh-key",
            paramLabel = "FILE",
            description = "For sshftp://: the unencrypted private key Ferry logs in with (stored sealed); - reads it"
                    + " from standard input.")
    private String sshKey;

    @Option(
            names = "--ssh-host-key",
            paramLabel = "KEY",
            description = "For sshftp://: the server's host key to pin ('ssh-ed25519 AAAA...'; default: the key the"
                    + " server shows now).")
    private String sshHostKey;

    /** @return 0 once the endpoint is created */
    @Override
    protected int execute() {
        if (password != null && passwordStdin) {
            throw new CommandLine.ParameterException(
                    spec().commandLine(), "--password and --password-stdin are mutually exclusive");
        }
        ObjectNode body = root().mapper().createObjectNode();
        body.put("DATA_TYPE", "endpoint");
        body.put("canonical_name", name);
        body.put("url", url);
        if (username != null) {
            body.put("username", username);
        }
        if (description != null) {
            body.put("description", description);
        }
        if (isPublic) {
            body.put("public", true);
        }
        if (defaultDirectory != null) {
            body.put("default_directory", defaultDirectory);
        }
        if (myProxyServer != null) {
            body.put("myproxy_server", myProxyServer);
        }
        if (myProxyDn != null) {
            body.put("myproxy_dn", myProxyDn);
        }
        if (sshKey != null) {
            body.put("ssh_private_key", readKey(sshKey));
        }
        if (sshHostKey != null) {
            body.put("ssh_host_key", sshHostKey);
        }
        String secret = passwordStdin ? readPasswordLine() : password;
        if (secret != null) {
            body.put("password", secret);
        }
        JsonNode endpoint = client().post("/endpoint", body);
        if (format() == OutputFormat.JSON) {
            printJson(endpoint);
        } else {
            EndpointDocuments.record(endpoint).print(out(), format());
        }
        return 0;
    }

    private String readKey(String file) {
        try {
            if ("-".equals(file)) {
                return new String(root().environment().stdin().readAllBytes(), StandardCharsets.UTF_8);
            }
            java.nio.file.Path path = root().environment().localFile(file, spec().commandLine());
            if (file.startsWith("~/")) {
                path = root().environment().userHome().resolve(file.substring(2));
            }
            return java.nio.file.Files.readString(path, StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot read the SSH key " + file + ": " + e.getMessage(), e);
        }
    }

    /** @return the first line of standard input, or empty */
    static String readLine(CliEnvironment environment) {
        BufferedReader reader = new BufferedReader(new InputStreamReader(environment.stdin(), StandardCharsets.UTF_8));
        try {
            String line = reader.readLine();
            return line == null ? "" : line;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read standard input", e);
        }
    }

    private String readPasswordLine() {
        // Not closed: it is the process's stdin.
        BufferedReader reader =
                new BufferedReader(new InputStreamReader(root().environment().stdin(), StandardCharsets.UTF_8));
        try {
            String line = reader.readLine();
            return line == null ? "" : line;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the password from stdin", e);
        }
    }
}
