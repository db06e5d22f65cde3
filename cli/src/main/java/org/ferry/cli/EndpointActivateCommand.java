package org.ferry.cli;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.ferry.cli.api.FerryApiClient;
import org.ferry.cli.gsi.ProxySigner;
import org.ferry.cli.output.Json;
import org.ferry.cli.output.OutputFormat;
import org.ferry.cli.output.Record;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code ferry endpoint activate NAME [--myproxy ... | --delegate-proxy [FILE] | --ssh-key FILE]}:
 * activates a {@code gsiftp://} endpoint, or an {@code sshftp://} one made without a key, for you
 * (the Globus activation resources). Without a method it tries
 * automatic activation ({@code POST .../autoactivate}). With {@code --myproxy} the service fetches
 * a proxy from your MyProxy server with the passphrase you type (read once, never stored). With
 * {@code --delegate-proxy} this command signs a proxy certificate, with your own proxy, for a key
 * pair the service made ({@code GET .../activation_requirements} gives its public key): your
 * private key never leaves your machine, and the service's never leaves the service. With
 * {@code --ssh-key} the service keeps an SSH private key of yours (sealed, decrypted with the
 * passphrase you type if it is encrypted; the passphrase is never stored) for your sessions to an
 * {@code sshftp://} endpoint, after one login with it through the endpoint's sshd.
 */
@Command(
        name = "activate",
        mixinStandardHelpOptions = true,
        versionProvider = FerryVersion.class,
        description = "Activate a gsiftp:// endpoint with a credential of yours, or an sshftp:// endpoint made"
                + " without a key with an SSH key of yours (without a method: automatic activation from a"
                + " credential of yours cached for another endpoint).",
        footerHeading = "%nExamples:%n",
        footer = {
            "  ferry endpoint activate site#grid --myproxy -U alice",
            "  ferry endpoint activate site#grid --delegate-proxy        (your grid-proxy-init proxy)",
            "  ferry endpoint activate site#dtn --ssh-key ~/.ssh/id_ed25519 --ssh-user alice"
        })
public final class EndpointActivateCommand extends ApiCommand {

    private static final int DEFAULT_PROXY_HOURS = 12;

    @Parameters(index = "0", paramLabel = "NAME", description = "Canonical name or id.")
    private String name;

    @ArgGroup(exclusive = true)
    private Method method;

    /** The activation method: MyProxy or a delegated proxy. */
    static final class Method {
        @ArgGroup(exclusive = false)
        MyProxyOptions myProxy;

        @Option(
                names = "--delegate-proxy",
                arity = "0..1",
                paramLabel = "FILE",
                fallbackValue = "",
                description = "Delegate from your proxy file (default: $X509_USER_PROXY, else /tmp/x509up_u<uid>).")
        String delegateProxy;

        @ArgGroup(exclusive = false)
        SshKeyOptions sshKey;
    }

    /** What the service needs to log in to an sshftp:// endpoint as you. */
    static final class SshKeyOptions {
        @Option(
                names = "--ssh-key",
                required = true,
                paramLabel = "FILE",
                description =
                        "Activate an sshftp:// endpoint with your SSH private key (OpenSSH or PEM; - reads it from"
                                + " standard input); its public key must be in your authorized_keys on the host.")
        String file;

        @Option(
                names = "--ssh-user",
                paramLabel = "LOGIN",
                description = "Your SSH login on the endpoint's host (default: the endpoint's username, else $LOGNAME"
                        + " or $USER).")
        String login;

        @Option(
                names = "--ssh-lifetime",
                paramLabel = "HOURS",
                description = "How long the service may use the key (default 12, at most 336).")
        Integer lifetimeHours;

        @Option(
                names = "--ssh-passphrase-stdin",
                description = "For an encrypted key: read its passphrase from the first line of standard input"
                        + " instead of prompting.")
        boolean passphraseStdin;
    }

    /** What the service needs to fetch a proxy from MyProxy. */
    static final class MyProxyOptions {
        @Option(names = "--myproxy", required = true, description = "Activate with a credential from a MyProxy server.")
        boolean enabled;

        @Option(
                names = "--myproxy-server",
                paramLabel = "HOST[:PORT]",
                description = "The MyProxy server (default: the endpoint's; port 7512).")
        String server;

        @Option(
                names = {"-U", "--myproxy-username"},
                paramLabel = "USER",
                description = "Your MyProxy username (default: $LOGNAME or $USER).")
        String username;

        @Option(
                names = "--myproxy-lifetime",
                paramLabel = "HOURS",
                description = "Lifetime of the credential to request (default 12; the server may cap it).")
        Integer lifetimeHours;

        @Option(
                names = "--myproxy-server-dn",
                paramLabel = "DN",
                description = "The MyProxy server's DN when it is not host/<hostname>.")
        String serverDn;

        @Option(
                names = "--myproxy-bootstrap-trust",
                description = "Trust the MyProxy server's CA on first use and keep its trust roots for your"
                        + " sessions (as myproxy-logon -b).")
        boolean bootstrapTrust;

        @Option(
                names = "--passphrase-stdin",
                description =
                        "Read the MyProxy passphrase from the first line of standard input instead of" + " prompting.")
        boolean passphraseStdin;
    }

    @Option(
            names = "--proxy-lifetime",
            paramLabel = "HOURS",
            description = "With --delegate-proxy: lifetime of the proxy (default 12, at most your proxy's).")
    private Integer proxyLifetimeHours;

    /** @return 0 when the endpoint is activated, 1 otherwise */
    @Override
    protected int execute() {
        String path = "/endpoint/" + FerryApiClient.segment(name);
        if (proxyLifetimeHours != null && (method == null || method.delegateProxy == null)) {
            throw new CommandLine.ParameterException(spec().commandLine(), "--proxy-lifetime needs --delegate-proxy");
        }
        JsonNode result;
        if (method == null) {
            result = client().post(path + "/autoactivate", root().mapper().createObjectNode());
        } else {
            JsonNode requirements = client().get(path + "/activation_requirements", Map.of());
            if (requirements.path("DATA").isEmpty()
                    && requirements.path("activated").asBoolean()) {
                result = client().post(path + "/autoactivate", root().mapper().createObjectNode());
            } else if (method.myProxy != null) {
                result = client().post(path + "/activate", fillMyProxy(requirements, method.myProxy));
            } else if (method.sshKey != null) {
                result = client().post(path + "/activate", fillSshKey(requirements, method.sshKey));
            } else {
                result = client().post(path + "/activate", fillDelegatedProxy(requirements));
            }
        }
        print(result);
        return result.path("code").asString("").equals("AutoActivationFailed") ? EXIT_ERROR : 0;
    }

    private JsonNode fillMyProxy(JsonNode requirements, MyProxyOptions options) {
        String username = options.username != null ? options.username : defaultUser();
        if (username == null) {
            throw new CommandLine.ParameterException(spec().commandLine(), "--myproxy needs -U/--myproxy-username");
        }
        String passphrase = options.passphraseStdin ? readLine() : prompt("MyProxy passphrase for " + username + ": ");
        ObjectNode filled = (ObjectNode) requirements.deepCopy();
        for (JsonNode item : filled.path("DATA")) {
            if (!"myproxy".equals(item.path("type").asString(""))) {
                continue;
            }
            ObjectNode requirement = (ObjectNode) item;
            switch (item.path("name").asString("")) {
                case "hostname" -> {
                    if (options.server != null) {
                        requirement.put("value", options.server);
                    }
                }
                case "username" -> requirement.put("value", username);
                case "passphrase" -> requirement.put("value", passphrase);
                case "server_dn" -> {
                    if (options.serverDn != null) {
                        requirement.put("value", options.serverDn);
                    }
                }
                case "lifetime_in_hours" -> {
                    if (options.lifetimeHours != null) {
                        requirement.put("value", options.lifetimeHours.toString());
                    }
                }
                case "bootstrap_trust" -> requirement.put("value", Boolean.toString(options.bootstrapTrust));
                default -> {
                    // a requirement this CLI does not know: left as the service offered it
                }
            }
        }
        return filled;
    }

    private JsonNode fillSshKey(JsonNode requirements, SshKeyOptions options) {
        if ("-".equals(options.file) && options.passphraseStdin) {
            throw new CommandLine.ParameterException(
                    spec().commandLine(), "--ssh-key - and --ssh-passphrase-stdin cannot both read standard input");
        }
        boolean offered = false;
        String offeredLogin = null;
        for (JsonNode item : requirements.path("DATA")) {
            if ("ssh_key".equals(item.path("type").asString(""))) {
                offered = true;
                if ("username".equals(item.path("name").asString(""))) {
                    offeredLogin = item.path("value").asString(null);
                }
            }
        }
        if (!offered) {
            throw new UncheckedIOException(new IOException("endpoint " + name
                    + " is not activated with an SSH key (--ssh-key is for sshftp:// endpoints made without a key)"));
        }
        String login = options.login != null ? options.login : offeredLogin != null ? offeredLogin : defaultUser();
        String key = readKey(options.file);
        String passphrase = null;
        if (SshKeyFiles.isEncrypted(key)) {
            passphrase = options.passphraseStdin
                    ? readLine()
                    : prompt("Passphrase for SSH key " + ("-".equals(options.file) ? "from stdin" : options.file)
                            + ": ");
        }
        ObjectNode filled = (ObjectNode) requirements.deepCopy();
        for (JsonNode item : filled.path("DATA")) {
            if (!"ssh_key".equals(item.path("type").asString(""))) {
                continue;
            }
            ObjectNode requirement = (ObjectNode) item;
            switch (item.path("name").asString("")) {
                case "username" -> {
                    if (login != null) {
                        requirement.put("value", login);
                    }
                }
                case "private_key" -> requirement.put("value", key);
                case "passphrase" -> {
                    if (passphrase != null) {
                        requirement.put("value", passphrase);
                    }
                }
                case "lifetime_in_hours" -> {
                    if (options.lifetimeHours != null) {
                        requirement.put("value", options.lifetimeHours.toString());
                    }
                }
                default -> {
                    // a requirement this CLI does not know: left as the service offered it
                }
            }
        }
        return filled;
    }

    private String readKey(String file) {
        try {
            if ("-".equals(file)) {
                return new String(root().environment().stdin().readAllBytes(), StandardCharsets.UTF_8);
            }
            Path path = file.startsWith("~/")
                    ? root().environment().userHome().resolve(file.substring(2))
                    : root().environment().localFile(file, spec().commandLine());
            return Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the SSH key " + file + ": " + e.getMessage(), e);
        }
    }

    private JsonNode fillDelegatedProxy(JsonNode requirements) {
        String publicKey = null;
        for (JsonNode item : requirements.path("DATA")) {
            if ("delegate_proxy".equals(item.path("type").asString(""))
                    && "public_key".equals(item.path("name").asString(""))) {
                publicKey = item.path("value").asString(null);
            }
        }
        if (publicKey == null) {
            throw new UncheckedIOException(
                    new IOException("endpoint " + name + " does not offer delegate-proxy activation"));
        }
        Path file = root().environment()
                .localFile(
                        method.delegateProxy.isEmpty() ? defaultProxyFile().toString() : method.delegateProxy,
                        spec().commandLine());
        if (!Files.isReadable(file)) {
            throw new UncheckedIOException(new IOException("no readable proxy certificate at " + file
                    + ": make one with grid-proxy-init, or name one with --delegate-proxy FILE or X509_USER_PROXY"));
        }
        String chain;
        try {
            ProxySigner.Credential credential = ProxySigner.read(file);
            int hours = proxyLifetimeHours == null ? DEFAULT_PROXY_HOURS : proxyLifetimeHours;
            if (hours < 1) {
                throw new CommandLine.ParameterException(spec().commandLine(), "--proxy-lifetime must be at least 1");
            }
            chain = ProxySigner.sign(credential, publicKey, Duration.ofHours(hours), Instant.now());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ObjectNode filled = (ObjectNode) requirements.deepCopy();
        for (JsonNode item : filled.path("DATA")) {
            if ("delegate_proxy".equals(item.path("type").asString(""))
                    && "proxy_chain".equals(item.path("name").asString(""))) {
                ((ObjectNode) item).put("value", chain);
            }
        }
        return filled;
    }

    private Path defaultProxyFile() {
        String fromEnv = root().environment().get("X509_USER_PROXY");
        if (fromEnv != null && !fromEnv.isEmpty()) {
            return Path.of(fromEnv);
        }
        long uid = new com.sun.security.auth.module.UnixSystem().getUid();
        return Path.of("/tmp/x509up_u" + uid);
    }

    private String defaultUser() {
        String user = root().environment().get("LOGNAME");
        return user != null && !user.isEmpty() ? user : root().environment().get("USER");
    }

    private String readLine() {
        // Not closed: it is the process's stdin.
        BufferedReader reader =
                new BufferedReader(new InputStreamReader(root().environment().stdin(), StandardCharsets.UTF_8));
        try {
            String line = reader.readLine();
            if (line == null || line.isEmpty()) {
                throw new CommandLine.ParameterException(spec().commandLine(), "standard input holds no passphrase");
            }
            return line;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the passphrase from stdin", e);
        }
    }

    private String prompt(String text) {
        Console console = System.console();
        if (console == null) {
            throw new CommandLine.ParameterException(
                    spec().commandLine(),
                    "no terminal to ask for the passphrase: give --passphrase-stdin (MyProxy) or"
                            + " --ssh-passphrase-stdin (an SSH key)");
        }
        char[] typed = console.readPassword(text);
        if (typed == null || typed.length == 0) {
            throw new CommandLine.ParameterException(spec().commandLine(), "no passphrase given");
        }
        return new String(typed);
    }

    private void print(JsonNode result) {
        if (format() == OutputFormat.JSON) {
            printJson(result);
            return;
        }
        new Record()
                .field("Code", Json.text(result, "code"))
                .field("Message", Json.text(result, "message"))
                .field("Activated", Json.text(result, "activated"))
                .field("Expires In", EndpointDocuments.expiresIn(result))
                .field("Expire Time", Json.text(result, "expire_time"))
                .field("Subject", Json.text(result, "subject"))
                .print(out(), format());
    }
}
