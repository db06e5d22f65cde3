package org.ferry.mover.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.ferry.gsi.ca.OnlineCa;
import org.ferry.mover.connect.SetupKey;
import org.ferry.mover.connect.relay.CaAgentDirectory;
import org.ferry.mover.connect.relay.Relay;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ferry-connect-relay}: the stand-alone relay of Ferry Connect ({@link Relay}) over its own
 * online CA, in a state directory ({@code ca/}, {@code agents/}, {@code hostkey},
 * {@code relay.properties}). {@code serve} (the default) runs it and prints
 * {@code Relay listening at HOST:PORT}, then one line per event; {@code new-key} makes an agent and
 * prints its setup key; {@code revoke AGENT} revokes an agent's certificate, which a serving relay
 * notices at once and cuts the agent off; {@code agents} lists the agents on record. Exit codes: 0
 * done, 1 failure, 2 usage.
 */
@Command(
        name = "ferry-connect-relay",
        mixinStandardHelpOptions = true,
        version = "ferry-connect-relay 0.1",
        description = "The relay Ferry Connect agents dial out to.",
        subcommands = {
            FerryConnectRelayMain.NewKey.class,
            FerryConnectRelayMain.Revoke.class,
            FerryConnectRelayMain.Agents.class
        })
public final class FerryConnectRelayMain implements Callable<Integer> {

    private static final String CA_BASE = "/O=Ferry/OU=Connect";
    private static final String CA_SUBJECT = CA_BASE + "/CN=Ferry Connect CA";

    @Spec
    private CommandLine.Model.CommandSpec spec;

    @Option(names = "--dir", required = true, paramLabel = "DIR", description = "The relay's state directory.")
    private Path dir;

    @Option(
            names = "--listen",
            paramLabel = "HOST:PORT",
            defaultValue = "127.0.0.1:2223",
            description = "Where agents dial in (default: ${DEFAULT-VALUE}).")
    private String listen;

    @Option(
            names = "--public-host",
            paramLabel = "HOST",
            description =
                    "The relay's host name as agents dial it, written into setup keys (default: the listen host).")
    private String publicHost;

    @Option(
            names = "--forward-host",
            paramLabel = "ADDRESS",
            description = "The address agents' control and data ports are bound on, where movers reach them"
                    + " (default: the listen host).")
    private String forwardHost;

    @Option(
            names = "--control-ports",
            paramLabel = "FIRST-LAST",
            defaultValue = "42000-42999",
            description = "The agents' control ports, one per agent (default: ${DEFAULT-VALUE}).")
    private String controlPorts;

    @Option(
            names = "--allow-dn",
            paramLabel = "DN",
            description = "A DN that may log in to every agent (the service's movers); repeat for several.")
    private List<String> allowed = new ArrayList<>();

    @Option(
            names = "--idle-timeout",
            paramLabel = "SECONDS",
            defaultValue = "120",
            description = "An agent connection silent this long is closed (default: ${DEFAULT-VALUE}).")
    private int idleSeconds;

    /** @param args command line */
    public static void main(String[] args) {
        System.exit(new CommandLine(new FerryConnectRelayMain()).execute(args));
    }

    private static Properties load(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        return p;
    }

    CaAgentDirectory directory(Properties settings) throws IOException, GeneralSecurityException {
        OnlineCa ca = Files.exists(dir.resolve("ca/cacert.pem"))
                ? OnlineCa.open(dir.resolve("ca"))
                : OnlineCa.create(CA_SUBJECT, dir.resolve("ca"), 2048);
        String[] range = settings.getProperty("control-ports").split("-");
        List<String> dns = new ArrayList<>();
        for (String dn : settings.getProperty("allow-dn", "").split("\n")) {
            if (!dn.isBlank()) {
                dns.add(dn);
            }
        }
        return new CaAgentDirectory(
                ca, dir.resolve("agents"), dns, Integer.parseInt(range[0]), Integer.parseInt(range[1]));
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        int colon = listen.lastIndexOf(':');
        String host;
        int port;
        try {
            host = listen.substring(0, colon);
            port = Integer.parseInt(listen.substring(colon + 1));
            String[] range = controlPorts.split("-");
            if (range.length != 2 || Integer.parseInt(range[0]) > Integer.parseInt(range[1])) {
                throw new NumberFormatException();
            }
        } catch (RuntimeException e) {
            err.println("ferry-connect-relay: --listen wants HOST:PORT, --control-ports FIRST-LAST");
            return 2;
        }
        Files.createDirectories(dir);
        Properties settings = new Properties();
        settings.setProperty("control-ports", controlPorts);
        settings.setProperty("allow-dn", String.join("\n", allowed));
        settings.setProperty("forward-host", forwardHost == null ? host : forwardHost);
        CaAgentDirectory directory;
        try {
            directory = directory(settings);
        } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
            err.println("ferry-connect-relay: " + e.getMessage());
            return 1;
        }
        PrintWriter out = spec.commandLine().getOut();
        Relay relay;
        try {
            relay = Relay.start(
                    new Relay.Settings(
                            host,
                            port,
                            settings.getProperty("forward-host"),
                            dir.resolve("hostkey"),
                            Duration.ofSeconds(idleSeconds)),
                    directory,
                    line -> {
                        synchronized (out) {
                            out.println(line);
                            out.flush();
                        }
                    });
        } catch (IOException e) {
            err.println("ferry-connect-relay: cannot listen at " + listen + ": " + e.getMessage());
            return 1;
        }
        settings.setProperty("public-host", publicHost == null ? host : publicHost);
        settings.setProperty("port", Integer.toString(relay.port()));
        try (Writer w = Files.newBufferedWriter(dir.resolve("relay.properties"), StandardCharsets.UTF_8)) {
            settings.store(w, "written by ferry-connect-relay serve; read by new-key");
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                relay.close();
            } catch (IOException e) {
                // exiting anyway
            }
        }));
        synchronized (out) {
            out.println("Relay listening at " + host + ":" + relay.port());
            out.flush();
        }
        // a revocation (ferry-connect-relay revoke, from another process) cuts the agent off at once
        Path revoked = directory.revocations();
        try (WatchService watch = FileSystems.getDefault().newWatchService()) {
            revoked.register(watch, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY);
            while (true) {
                WatchKey key = watch.take();
                key.pollEvents();
                relay.recheck();
                key.reset();
            }
        }
    }

    /** {@code new-key}: a new agent and its setup key. */
    @Command(
            name = "new-key",
            mixinStandardHelpOptions = true,
            description = "Make a new agent and print its one-time setup key (the relay must have been served once).")
    static final class NewKey implements Callable<Integer> {
        @CommandLine.ParentCommand
        private FerryConnectRelayMain parent;

        @Spec
        private CommandLine.Model.CommandSpec spec;

        @Option(
                names = "--lifetime",
                paramLabel = "MINUTES",
                defaultValue = "1440",
                description = "How long the key may wait to be used (default: ${DEFAULT-VALUE}).")
        private long lifetimeMinutes;

        @Option(
                names = "--expires",
                paramLabel = "INSTANT",
                description = "When the key stops being accepted, e.g. 2030-01-01T00:00:00Z (instead of --lifetime).")
        private java.time.Instant expires;

        @Override
        public Integer call() throws Exception {
            Path file = parent.dir.resolve("relay.properties");
            if (!Files.exists(file)) {
                spec.commandLine()
                        .getErr()
                        .println("ferry-connect-relay new-key: no relay.properties in " + parent.dir
                                + ": serve the relay once first");
                return 1;
            }
            if (lifetimeMinutes < 1) {
                spec.commandLine().getErr().println("ferry-connect-relay new-key: --lifetime must be at least 1");
                return 2;
            }
            Properties settings = load(file);
            CaAgentDirectory directory = parent.directory(settings);
            CaAgentDirectory.NewAgent agent = expires != null
                    ? directory.newAgent(expires)
                    : directory.newAgent(Duration.ofMinutes(lifetimeMinutes));
            org.apache.sshd.server.keyprovider.SimpleGeneratorHostKeyProvider keys =
                    new org.apache.sshd.server.keyprovider.SimpleGeneratorHostKeyProvider(
                            parent.dir.resolve("hostkey"));
            keys.setAlgorithm("EC");
            SetupKey key = new SetupKey(
                    settings.getProperty("public-host"),
                    Integer.parseInt(settings.getProperty("port")),
                    SetupKey.fingerprint(keys.loadKeys(null).get(0).getPublic()),
                    agent.secret());
            PrintWriter out = spec.commandLine().getOut();
            out.println(key.encode());
            out.println("agent " + agent.agentId() + ", control " + settings.getProperty("forward-host") + ":"
                    + agent.controlPort() + ", subject " + CA_BASE + "/CN=connect/" + agent.agentId());
            out.flush();
            return 0;
        }
    }

    /** {@code revoke AGENT}. */
    @Command(name = "revoke", mixinStandardHelpOptions = true, description = "Revoke an agent: it is cut off at once.")
    static final class Revoke implements Callable<Integer> {
        @CommandLine.ParentCommand
        private FerryConnectRelayMain parent;

        @Spec
        private CommandLine.Model.CommandSpec spec;

        @Parameters(index = "0", paramLabel = "AGENT", description = "The agent's id.")
        private String agentId;

        @Override
        public Integer call() throws Exception {
            Properties settings = load(parent.dir.resolve("relay.properties"));
            int n = parent.directory(settings).revoke(agentId);
            if (n == 0) {
                spec.commandLine()
                        .getErr()
                        .println("ferry-connect-relay revoke: no current certificate for " + agentId);
                return 1;
            }
            spec.commandLine().getOut().println("revoked " + agentId);
            spec.commandLine().getOut().flush();
            return 0;
        }
    }

    /** {@code agents}. */
    @Command(name = "agents", mixinStandardHelpOptions = true, description = "List the agents on record.")
    static final class Agents implements Callable<Integer> {
        @CommandLine.ParentCommand
        private FerryConnectRelayMain parent;

        @Spec
        private CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            Properties settings = load(parent.dir.resolve("relay.properties"));
            for (String id : parent.directory(settings).agentIds()) {
                spec.commandLine().getOut().println(id);
            }
            spec.commandLine().getOut().flush();
            return 0;
        }
    }
}
