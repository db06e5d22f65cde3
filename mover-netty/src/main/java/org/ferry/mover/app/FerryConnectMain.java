package org.ferry.mover.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.ferry.mover.connect.Agent;
import org.ferry.mover.connect.AgentHome;
import org.ferry.mover.connect.AgentSetup;
import org.ferry.mover.connect.SetupFailure;
import org.ferry.mover.connect.SetupKey;
import org.ferry.mover.storage.MountedStorage;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ferry-connect}: a personal endpoint behind a firewall (Globus Connect, seed 000). {@code
 * ferry-connect setup KEY} pairs this machine once (see {@link AgentSetup}); then, with no
 * argument, {@code ferry-connect} runs the agent in the foreground ({@link Agent}), {@code start}
 * in the background, {@code stop} stops it and {@code status} says whether it is connected. The
 * agent's files live in {@code --home}, default {@code $FERRY_CONNECT_HOME}, else
 * {@code ~/.ferry-connect}. Exit codes: 0 done, 1 failure (message on stderr), 2 usage, 3 the relay
 * refused this agent (revoked).
 */
@Command(
        name = "ferry-connect",
        mixinStandardHelpOptions = true,
        version = Agent.VERSION,
        description = "Ferry Connect: share directories of this machine with the Ferry service, through"
                + " outbound connections only. Without a command, runs the agent in the foreground.",
        subcommands = {
            FerryConnectMain.Setup.class,
            FerryConnectMain.Start.class,
            FerryConnectMain.Stop.class,
            FerryConnectMain.Status.class
        })
public final class FerryConnectMain implements Callable<Integer> {

    @Spec
    private CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--home",
            paramLabel = "DIR",
            description = "The agent's files (default: $FERRY_CONNECT_HOME, else ~/.ferry-connect).")
    private Path home;

    @Option(
            names = "--data-rate-limit",
            paramLabel = "BYTES",
            defaultValue = "0",
            converter = ByteSizeConverter.class,
            description = "Cap on the bytes per second the agent sends, and separately receives; K, M, G"
                    + " suffixes; 0 for none (default: ${DEFAULT-VALUE}).")
    private long dataRateLimit;

    @Option(
            names = "--heartbeat",
            paramLabel = "SECONDS",
            defaultValue = "15",
            description = "Seconds between checks that the relay connection is alive; it is dropped and dialled"
                    + " again after three unanswered (default: ${DEFAULT-VALUE}).")
    private int heartbeatSeconds;

    @Option(
            names = "--max-retry",
            paramLabel = "SECONDS",
            defaultValue = "60",
            description = "Cap on the back-off between attempts to reach the relay (default: ${DEFAULT-VALUE}).")
    private int maxRetrySeconds;

    @Option(
            names = "--marker-interval",
            paramLabel = "SECONDS",
            defaultValue = "5",
            description = "Seconds between restart markers while receiving (default: ${DEFAULT-VALUE}).")
    private double markerIntervalSeconds;

    /** @param args command line */
    public static void main(String[] args) {
        org.ferry.gsi.context.GsiEngines.ignoreServerNameIndication();
        System.exit(new CommandLine(new FerryConnectMain()).execute(args));
    }

    AgentHome agentHome() {
        if (home != null) {
            return new AgentHome(home);
        }
        String env = System.getenv("FERRY_CONNECT_HOME");
        return new AgentHome(
                env != null && !env.isBlank()
                        ? Path.of(env)
                        : Path.of(System.getProperty("user.home"), ".ferry-connect"));
    }

    /** The options a background agent is started with, as given to this command. */
    List<String> runOptions() {
        return List.of(
                "--home", agentHome().dir().toString(),
                "--data-rate-limit", Long.toString(dataRateLimit),
                "--heartbeat", Integer.toString(heartbeatSeconds),
                "--max-retry", Integer.toString(maxRetrySeconds),
                "--marker-interval", Double.toString(markerIntervalSeconds));
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        if (heartbeatSeconds < 1 || maxRetrySeconds < 1 || !(markerIntervalSeconds >= 0.1)) {
            err.println("ferry-connect: --heartbeat and --max-retry must be at least 1, --marker-interval 0.1");
            return 2;
        }
        PrintWriter out = spec.commandLine().getOut();
        Agent agent;
        try {
            agent = Agent.start(
                    agentHome(),
                    new Agent.Options(
                            Duration.ofSeconds(heartbeatSeconds),
                            Duration.ofSeconds(1),
                            Duration.ofSeconds(maxRetrySeconds),
                            dataRateLimit,
                            Duration.ofMillis(Math.round(markerIntervalSeconds * 1000))),
                    line -> {
                        out.println(line);
                        out.flush();
                    });
        } catch (SetupFailure e) {
            err.println("ferry-connect: " + e.getMessage());
            return 1;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(agent::close, "ferry-connect-shutdown"));
        out.println("ferry-connect: agent " + agent.config().agentId() + " sharing "
                + agent.config().directories().stream()
                        .map(AgentHome::formatDirectory)
                        .toList());
        out.flush();
        return agent.await();
    }

    /** {@code ferry-connect setup KEY}: pairs this machine with its endpoint. */
    @Command(
            name = "setup",
            mixinStandardHelpOptions = true,
            description = "Pair this machine with its endpoint, once, with the setup key shown when the endpoint"
                    + " was made. Shares your home directory read-write unless --dir/--read-only-dir say otherwise.")
    static final class Setup implements Callable<Integer> {
        @CommandLine.ParentCommand
        private FerryConnectMain parent;

        @Spec
        private CommandLine.Model.CommandSpec spec;

        @Parameters(index = "0", paramLabel = "KEY", description = "The setup key (fc1-...).")
        private String key;

        @Option(
                names = "--dir",
                paramLabel = "[NAME=]PATH",
                description = "Share this directory read-write, as /NAME (default NAME: its last component).")
        private List<String> readWrite = new ArrayList<>();

        @Option(names = "--read-only-dir", paramLabel = "[NAME=]PATH", description = "Share this directory read-only.")
        private List<String> readOnly = new ArrayList<>();

        @Override
        public Integer call() {
            PrintWriter err = spec.commandLine().getErr();
            SetupKey setupKey;
            try {
                setupKey = SetupKey.decode(key);
            } catch (IllegalArgumentException e) {
                err.println("ferry-connect setup: " + e.getMessage());
                return 1;
            }
            List<MountedStorage.Mount> mounts = new ArrayList<>();
            try {
                readWrite.forEach(d -> mounts.add(mount(d, false)));
                readOnly.forEach(d -> mounts.add(mount(d, true)));
                if (mounts.isEmpty()) {
                    mounts.add(new MountedStorage.Mount("home", Path.of(System.getProperty("user.home")), false));
                }
            } catch (IllegalArgumentException e) {
                err.println("ferry-connect setup: " + e.getMessage());
                return 2;
            }
            AgentHome home = parent.agentHome();
            try {
                AgentHome.Config config = AgentSetup.pair(setupKey, mounts, home);
                PrintWriter out = spec.commandLine().getOut();
                out.println("Paired: agent " + config.agentId() + " of relay " + config.relayHost() + ":"
                        + config.relayPort() + ", files in " + home.dir());
                for (MountedStorage.Mount m : config.directories()) {
                    out.println("  /" + m.name() + " -> " + m.directory() + (m.readOnly() ? " (read-only)" : ""));
                }
                out.println("Start it with: ferry-connect start   (or ferry-connect, in the foreground)");
                out.flush();
                return 0;
            } catch (SetupFailure e) {
                err.println("ferry-connect setup: " + e.getMessage());
                return 1;
            }
        }

        private static MountedStorage.Mount mount(String text, boolean readOnly) {
            int eq = text.indexOf('=');
            Path path = Path.of(eq < 0 ? text : text.substring(eq + 1))
                    .toAbsolutePath()
                    .normalize();
            String name = eq < 0
                    ? (path.getFileName() == null ? "root" : path.getFileName().toString())
                    : text.substring(0, eq);
            return new MountedStorage.Mount(name, path, readOnly);
        }
    }

    /** {@code ferry-connect start}: the agent in the background. */
    @Command(
            name = "start",
            mixinStandardHelpOptions = true,
            description = "Run the agent in the background (output in agent.log of its home) and wait until it is"
                    + " connected.")
    static final class Start implements Callable<Integer> {
        @CommandLine.ParentCommand
        private FerryConnectMain parent;

        @Spec
        private CommandLine.Model.CommandSpec spec;

        @Option(
                names = "--wait",
                paramLabel = "SECONDS",
                defaultValue = "60",
                description = "How long to wait for the first connection (default: ${DEFAULT-VALUE}).")
        private int waitSeconds;

        @Override
        public Integer call() throws IOException, InterruptedException {
            PrintWriter err = spec.commandLine().getErr();
            PrintWriter out = spec.commandLine().getOut();
            AgentHome home = parent.agentHome();
            if (!home.isPaired()) {
                err.println("ferry-connect start: this agent is not set up yet (" + home.dir()
                        + "): run ferry-connect setup KEY first");
                return 1;
            }
            Optional<ProcessHandle> running = running(home);
            if (running.isPresent()) {
                out.println(
                        "ferry-connect: already running (pid " + running.get().pid() + ")");
                out.flush();
                return 0;
            }
            List<String> command = new ArrayList<>();
            command.add(ProcessHandle.current().info().command().orElse("java"));
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add(FerryConnectMain.class.getName());
            command.addAll(parent.runOptions());
            Files.deleteIfExists(home.status());
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(home.log().toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(waitSeconds);
            while (System.nanoTime() < deadline) {
                if (!process.isAlive()) {
                    err.println("ferry-connect start: the agent stopped (exit " + process.exitValue() + "): "
                            + lastLine(home.log()));
                    return 1;
                }
                Properties status = home.readStatus();
                if ("connected".equals(status.getProperty("state"))) {
                    out.println("ferry-connect: running (pid " + process.pid() + "), connected to "
                            + status.getProperty("relay"));
                    out.flush();
                    return 0;
                }
                if ("refused".equals(status.getProperty("state"))) {
                    err.println("ferry-connect start: " + status.getProperty("error"));
                    return 3;
                }
                Thread.sleep(100);
            }
            Properties status = home.readStatus();
            err.println("ferry-connect start: running (pid " + process.pid() + ") but not connected yet: "
                    + status.getProperty("error", "no answer from the relay") + " (see " + home.log() + ")");
            return 1;
        }

        private static String lastLine(Path log) throws IOException {
            List<String> lines = Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
            return lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1);
        }
    }

    static Optional<ProcessHandle> running(AgentHome home) throws IOException {
        if (!Files.exists(home.pid())) {
            return Optional.empty();
        }
        String text = Files.readString(home.pid(), StandardCharsets.US_ASCII).strip();
        try {
            return ProcessHandle.of(Long.parseLong(text)).filter(ProcessHandle::isAlive);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** {@code ferry-connect stop}. */
    @Command(name = "stop", mixinStandardHelpOptions = true, description = "Stop the agent running in the background.")
    static final class Stop implements Callable<Integer> {
        @CommandLine.ParentCommand
        private FerryConnectMain parent;

        @Spec
        private CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws IOException, InterruptedException {
            PrintWriter out = spec.commandLine().getOut();
            Optional<ProcessHandle> running = running(parent.agentHome());
            if (running.isEmpty()) {
                out.println("ferry-connect: not running");
                out.flush();
                return 0;
            }
            running.get().destroy(); // SIGTERM: the agent closes its connection and its server
            try {
                running.get().onExit().get(20, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                spec.commandLine()
                        .getErr()
                        .println("ferry-connect stop: pid " + running.get().pid() + " did not stop within 20 s");
                return 1;
            }
            out.println("ferry-connect: stopped");
            out.flush();
            return 0;
        }
    }

    /** {@code ferry-connect status}. */
    @Command(
            name = "status",
            mixinStandardHelpOptions = true,
            description = "Say whether the agent runs and is connected. Exit 0 when connected, 1 otherwise.")
    static final class Status implements Callable<Integer> {
        @CommandLine.ParentCommand
        private FerryConnectMain parent;

        @Spec
        private CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            PrintWriter out = spec.commandLine().getOut();
            AgentHome home = parent.agentHome();
            if (!home.isPaired()) {
                out.println("not set up (" + home.dir() + "): run ferry-connect setup KEY");
                out.flush();
                return 1;
            }
            AgentHome.Config config = home.load();
            Optional<ProcessHandle> running = running(home);
            Properties status = home.readStatus();
            String state = running.isPresent() ? status.getProperty("state", "starting") : "stopped";
            out.println("agent:   " + config.agentId());
            out.println("relay:   " + config.relayHost() + ":" + config.relayPort());
            out.println("state:   " + state
                    + (running.isPresent() ? " (pid " + running.get().pid() + ")" : "")
                    + (running.isPresent() && status.getProperty("since") != null
                            ? " since " + status.getProperty("since")
                            : ""));
            if (running.isPresent() && status.getProperty("error") != null) {
                out.println("last:    " + status.getProperty("error"));
            }
            for (MountedStorage.Mount m : config.directories()) {
                out.println("shares:  /" + m.name() + " -> " + m.directory() + (m.readOnly() ? " (read-only)" : ""));
            }
            out.flush();
            return "connected".equals(state) ? 0 : 1;
        }
    }
}
