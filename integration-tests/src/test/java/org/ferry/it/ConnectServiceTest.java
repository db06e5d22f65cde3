package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.ferry.it.infra.NetworkNamespaces;
import org.ferry.testing.PostgresContainers;
import org.ferry.testing.Prerequisites;
import org.ferry.testing.RequiresContainers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * Ferry Connect through the service: ferry-server (on PostgreSQL) runs the relay
 * ({@code ferry.connect.listen}) on the test's address of a namespace network; two personal
 * endpoints' agents ({@code bin/ferry-connect}'s main, as the unprivileged user gsuser) run in two
 * network namespaces whose nftables input chains drop every inbound connection. A task between
 * the two agents moves a tree byte for byte, its data carried by the relay, and its events say so
 * ({@code DATA_RELAYED}, naming the relay); ferry-server killed (SIGKILL) and started again
 * mid-file: the agents dial again by themselves (back-off with jitter) and the task goes on to
 * SUCCEEDED, byte for byte. One server, one set of namespaces and agents serve both cases. Needs
 * root, ip, nft, setpriv, user gsuser and the test containers; skipped elsewhere, failed under CI.
 */
@RequiresContainers
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConnectServiceTest {

    private static final String USER = "gsuser";
    private static final Pattern CONNECTED = Pattern.compile("connected to the relay at \\S+; control channel at");
    /**
     * The sending agent's cap, bytes a second: a 24 MiB file (moved alone, with restart markers:
     * larger than a pipelined batch's files) is still moving when the server is killed.
     */
    private static final String RATE = "2M";

    private Path dir;
    private Path jar;
    private NetworkNamespaces net;
    private String jdbcUrl;
    private final List<String> serverArguments = new ArrayList<>();
    private FerryServerProcess server;
    private RestClient api;
    private final Launchers launchers = Launchers.fromBuild();
    private Agent a;
    private Agent b;

    /** An agent process, its host (namespace), home and shared directory. */
    private record Agent(int host, Path home, Path data, ManagedProcess process) {
        int connections() throws IOException {
            return ConnectNamespaceTest.count(CONNECTED, process.output());
        }
    }

    @BeforeAll
    void start() throws Exception {
        boolean possible = "root".equals(System.getProperty("user.name"))
                && Files.isExecutable(Path.of("/usr/sbin/nft"))
                && Files.isExecutable(Path.of("/usr/sbin/ip"))
                && Files.isExecutable(Path.of("/usr/bin/setpriv"))
                && new ProcessBuilder("id", USER).start().waitFor() == 0;
        Prerequisites.require(possible, "ConnectServiceTest needs root, ip, nft, setpriv and user " + USER);
        dir = Files.createTempDirectory("ferry-connect-service");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        List<String> mover = launchers.ferryMover();
        jar = Files.copy(Path.of(mover.get(mover.indexOf("-cp") + 1)), dir.resolve("ferry-connect.jar"));
        net = NetworkNamespaces.create(2);
        net.refuseInbound(1);
        net.refuseInbound(2);
        jdbcUrl = PostgresContainers.createDatabase(PostgresContainers.shared(), "connect_service");
        int relayPort;
        int firstControl;
        try (ServerSocket s = new ServerSocket(0);
                ServerSocket t = new ServerSocket(0)) {
            relayPort = s.getLocalPort();
            firstControl = Math.min(t.getLocalPort(), 65_000);
        }
        serverArguments.addAll(List.of(
                "--spring.datasource.url=" + jdbcUrl,
                "--ferry.transfer.retry-initial-backoff=500ms",
                "--ferry.transfer.retry-max-backoff=3s",
                "--ferry.connect.listen=" + net.rootAddress() + ":" + relayPort,
                "--ferry.connect.forward-host=" + net.rootAddress(),
                "--ferry.connect.control-ports=" + firstControl + "-" + (firstControl + 9)));
        startServer();
        a = pairAndRun(1, "a", "--data-rate-limit", RATE);
        b = pairAndRun(2, "b");
        awaitConnected("admin#a");
        awaitConnected("admin#b");
    }

    @AfterAll
    void stop() throws Exception {
        for (AutoCloseable part :
                new AutoCloseable[] {a == null ? null : a.process(), b == null ? null : b.process(), server, net}) {
            if (part != null) {
                part.close();
            }
        }
        if (dir != null && !Boolean.getBoolean("ferry.it.keep")) { // -Dferry.it.keep=true keeps the logs
            try (Stream<Path> all = Files.walk(dir)) {
                all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private void startServer() throws Exception {
        Path home = Files.createDirectories(dir.resolve("server-home"));
        server = FerryServerProcess.start(launchers, home, dir.resolve("ferry-server.log"), serverArguments);
        api = new RestClient(
                server.apiUrl(), Files.readString(home.resolve("token")).trim());
    }

    /** Makes the personal endpoint {@code admin#NAME}, pairs an agent in {@code host} with its key and runs it. */
    private Agent pairAndRun(int host, String name, String... options) throws Exception {
        JsonNode created = api.post("/v0.10/endpoint", Map.of("display_name", name, "is_globus_connect", true));
        String key = created.get("globus_connect_setup_key").asString();
        Path home = Files.createDirectories(dir.resolve("home-" + name));
        Path data = Files.createDirectories(dir.resolve("data-" + name));
        ConnectNamespaceTest.chownToUser(home);
        ConnectNamespaceTest.chownToUser(data);
        Path setupLog = dir.resolve("setup-" + name + ".log");
        Process setup = new ProcessBuilder(asUser(host, connect(home, "setup", key, "--dir", "data=" + data)))
                .redirectErrorStream(true)
                .redirectOutput(setupLog.toFile())
                .start();
        assertThat(setup.waitFor()).as(Files.readString(setupLog)).isZero();
        List<String> run = new ArrayList<>(List.of("--heartbeat", "2", "--max-retry", "4", "--marker-interval", "0.2"));
        run.addAll(List.of(options));
        ManagedProcess process = ManagedProcess.start(
                "agent-" + name,
                asUser(host, connect(home, run.toArray(String[]::new))),
                Map.of(),
                dir.resolve("agent-" + name + ".log"));
        Agent agent = new Agent(host, home, data, process);
        awaitConnections(agent, 1);
        return agent;
    }

    private List<String> asUser(int host, List<String> command) {
        return ConnectNamespaceTest.asUser(net, host, command);
    }

    private List<String> connect(Path home, String... args) {
        return ConnectNamespaceTest.connect(jar, home, args);
    }

    private static void awaitConnections(Agent agent, int atLeast) throws Exception {
        agent.process()
                .awaitOutput(
                        Pattern.compile("(?s)(?:.*?" + CONNECTED.pattern() + "){" + atLeast + "}"),
                        Duration.ofSeconds(120));
    }

    private void awaitConnected(String endpoint) {
        FaultHarness.awaitTrue(
                endpoint + " connected",
                () -> api.get("/v0.10/endpoint/" + endpoint.replace("#", "%23"))
                        .get("gcp_connected")
                        .asBoolean());
    }

    private String submit(String sourcePath, String destinationPath) throws Exception {
        return api.post("/v0.10/transfer", FaultHarness.recursive("admin#a", "admin#b", sourcePath, destinationPath))
                .get("task_id")
                .asString();
    }

    private JsonNode awaitEnd(String taskId) {
        return Awaitility.await("task " + taskId + " ends")
                .atMost(FaultHarness.END)
                .pollInterval(Duration.ofMillis(200))
                .ignoreException(IOException.class) // the server is restarting
                .until(
                        () -> api.get("/v0.10/task/" + taskId),
                        t -> !"ACTIVE".equals(t.get("status").asString()));
    }

    private List<JsonNode> events(String taskId) throws Exception {
        List<JsonNode> events = new ArrayList<>();
        api.get("/v0.10/task/" + taskId + "/event_list?limit=1000").get("DATA").forEach(events::add);
        return events;
    }

    @Test
    void aTreeBetweenTwoAgentsIsCarriedByTheRelayAndTheEventsSaySo() throws Exception {
        Path tree = a.data().resolve("tree");
        TestTrees.generate(tree, 40, 3 << 20, 21);
        ConnectNamespaceTest.chownToUser(tree);
        String taskId = submit("/data/tree", "/data/from-a");
        JsonNode task = awaitEnd(taskId);
        assertThat(task.get("status").asString())
                .as(task + "\n" + events(taskId))
                .isEqualTo("SUCCEEDED");
        FaultHarness.assertIdentical(tree, b.data().resolve("from-a"));
        List<JsonNode> all = events(taskId);
        JsonNode relayed = all.stream()
                .filter(e -> "DATA_RELAYED".equals(e.get("code").asString()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no DATA_RELAYED event: " + all));
        assertThat(relayed.get("is_error").asBoolean()).isFalse();
        assertThat(relayed.get("description").asString())
                .contains("relay at " + net.rootAddress(), "admin#a", "admin#b");
        assertThat(relayed.get("details").asString()).contains("\"relay\":\"" + net.rootAddress() + "\"");
    }

    @Test
    void theAgentsReconnectAfterAServerRestartAndTheTaskGoesOnFromItsMarkers() throws Exception {
        Path source = a.data().resolve("restart");
        Files.createDirectories(source);
        Files.write(source.resolve("big.bin"), ConnectNamespaceTest.random(24 << 20, 31));
        ConnectNamespaceTest.chownToUser(source);
        int aBefore = a.connections();
        int bBefore = b.connections();
        String taskId = submit("/data/restart", "/data/restart");
        FaultHarness.awaitTrue("restart markers of the file recorded", () -> {
            // a task that ended before its first marker would never mark
            assertThat(api.get("/v0.10/task/" + taskId).get("status").asString())
                    .as("the task ended before its first restart marker")
                    .isEqualTo("ACTIVE");
            return acknowledged(taskId) > 0;
        });
        server.kill();
        long atKill = acknowledged(taskId);
        assertThat(atKill).as("the kill came mid-file").isLessThan(24 << 20);

        startServer();
        // nobody restarts the agents: they notice, dial again with back-off, and are let in
        awaitConnections(a, aBefore + 1);
        awaitConnections(b, bBefore + 1);
        assertThat(a.process().output()).contains("dialling again");
        JsonNode task = awaitEnd(taskId);
        assertThat(task.get("status").asString())
                .as(task + "\n" + events(taskId))
                .isEqualTo("SUCCEEDED");
        FaultHarness.assertIdentical(source, b.data().resolve("restart"));
    }

    /** @return the bytes of the task's files the destination acknowledged (restart markers), from the database */
    private long acknowledged(String taskId) throws Exception {
        try (Connection db = DriverManager.getConnection(jdbcUrl);
                PreparedStatement query = db.prepareStatement(
                        "select coalesce(sum(bytes_acknowledged), 0) from transfer_file where task_id = ?")) {
            query.setObject(1, UUID.fromString(taskId));
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }
}
