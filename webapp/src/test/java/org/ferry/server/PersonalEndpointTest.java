package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.stream.Stream;
import org.ferry.api.domain.Role;
import org.ferry.api.identity.AccessTokenService;
import org.ferry.api.identity.AccountService;
import org.ferry.mover.connect.Agent;
import org.ferry.mover.connect.AgentHome;
import org.ferry.mover.connect.AgentSetup;
import org.ferry.mover.connect.SetupFailure;
import org.ferry.mover.connect.SetupKey;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.ferry.mover.storage.MountedStorage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * A personal endpoint end to end, on loopback in one JVM: ferry-server serves the Ferry Connect
 * relay ({@code ferry.connect.listen}); {@code POST /endpoint} with {@code is_globus_connect} shows
 * the setup key once; a real agent pairs with it and connects; the endpoint shows it connected
 * (since, version, directories); tasks into and out of the agent move trees byte for byte; a task
 * submitted while the agent is away, and one whose agent is stopped mid-file, wait ACTIVE with
 * {@code GC_NOT_CONNECTED} and finish once it is back; another user cannot reach the endpoint; the
 * owner revokes it and the agent is cut off and refused. The same agent across network
 * namespaces that drop every inbound connection is ConnectNamespaceTest's (integration-tests).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PersonalEndpointTest {

    private static final Path HOME = TestHomes.create("ferry-connect-home");
    private static final Path SITE = TestHomes.create("ferry-connect-site");
    private static final Path LAPTOP = TestHomes.create("ferry-connect-laptop");
    /** Two free ports in a row: the control ports of the two agents of this class. */
    private static final int CONTROL_PORT = freePortPair();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
        registry.add("ferry.connect.listen", () -> "127.0.0.1:0");
        registry.add("ferry.connect.control-ports", () -> CONTROL_PORT + "-" + (CONTROL_PORT + 1));
        registry.add("ferry.transfer.retry-backoff-seconds", () -> "0");
        registry.add("ferry.transfer.progress-interval-seconds", () -> "0");
    }

    @LocalServerPort
    int port;

    @Autowired
    AccountService accounts;

    @Autowired
    AccessTokenService tokens;

    GridFtpServer site;
    ApiClient alice;
    ApiClient bob;
    final BlockingQueue<String> agentEvents = new LinkedBlockingQueue<>();
    Agent agent;

    @BeforeAll
    void start() throws IOException {
        site = GridFtpServer.start(GridFtpServerConfig.loopback(SITE).withAnonymousAllowed(true));
        alice = new ApiClient(port, token("alice"));
        bob = new ApiClient(port, token("bob"));
        assertThat(alice.post(
                                "/v0.10/endpoint",
                                Map.of(
                                        "canonical_name",
                                        "alice#site",
                                        "url",
                                        "ftp://127.0.0.1:" + site.port(),
                                        "username",
                                        "anonymous"))
                        .status())
                .isEqualTo(201);
    }

    @AfterAll
    void stop() {
        if (agent != null) {
            agent.close();
        }
        site.close();
    }

    private String token(String name) {
        var account = accounts.create(name, Role.USER, "password-of-" + name);
        return tokens.create(AccountService.caller(account), "test", null).token();
    }

    @Test
    void aPersonalEndpointBehindTheRelayFromSetupKeyToRevocation() throws Exception {
        // created with is_globus_connect: the setup key is shown once
        ApiClient.Answer created = alice.post(
                "/v0.10/endpoint", Map.of("display_name", "laptop", "is_globus_connect", true, "description", "mine"));
        assertThat(created.status()).as(created.body().toString()).isEqualTo(201);
        String key = created.body().get("globus_connect_setup_key").asString();
        assertThat(key).startsWith("fc1-");
        assertThat(created.body().get("is_globus_connect").asBoolean()).isTrue();
        assertThat(created.body().get("url").asString())
                .isIn("gsiftp://127.0.0.1:" + CONTROL_PORT, "gsiftp://127.0.0.1:" + (CONTROL_PORT + 1));
        JsonNode shown = alice.get("/v0.10/endpoint/alice%23laptop").body();
        assertThat(shown.has("globus_connect_setup_key")).isFalse();
        assertThat(shown.get("gcp_connected").asBoolean()).isFalse();
        assertThat(shown.get("activated").asBoolean())
                .as("no activation: the movers log in")
                .isTrue();

        // a task submitted before the agent ever connects waits, ACTIVE, GC_NOT_CONNECTED
        Path tree = SITE.resolve("tree");
        write(tree.resolve("a.txt"), "hello laptop\n".getBytes());
        write(tree.resolve("sub dir/ü.bin"), random(700_000, 1));
        write(tree.resolve("x/y/z.bin"), random(1_500_000, 2));
        String waiting = submit(alice, "alice#site", "/tree", "alice#laptop", "/data/in", true);
        await().atMost(Duration.ofSeconds(60))
                .until(
                        () -> alice.get("/v0.10/task/" + waiting).body(),
                        t -> "GC_NOT_CONNECTED".equals(t.get("nice_status").asString()));
        assertThat(alice.get("/v0.10/task/" + waiting).body().get("status").asString())
                .isEqualTo("ACTIVE");

        // the agent pairs with the key (once), connects, and the endpoint shows it
        Path data = Files.createDirectories(LAPTOP.resolve("data"));
        AgentHome home = new AgentHome(LAPTOP.resolve("home"));
        AgentSetup.pair(SetupKey.decode(key), List.of(new MountedStorage.Mount("data", data, false)), home);
        assertThatThrownBy(() -> AgentSetup.pair(
                        SetupKey.decode(key),
                        List.of(new MountedStorage.Mount("data", data, false)),
                        new AgentHome(LAPTOP.resolve("thief"))))
                .isInstanceOf(SetupFailure.class)
                .hasMessageContaining("already been used");
        Agent.Options slow = new Agent.Options(
                Duration.ofSeconds(15), Duration.ofMillis(200), Duration.ofSeconds(2), 2L << 20, Duration.ofSeconds(1));
        agent = Agent.start(home, slow, agentEvents::add);
        JsonNode connected = await().atMost(Duration.ofSeconds(60))
                .until(
                        () -> alice.get("/v0.10/endpoint/alice%23laptop").body(),
                        e -> e.get("gcp_connected").asBoolean()
                                && Agent.VERSION.equals(e.path("gcp_version").asString()));
        assertThat(connected.get("gcp_version").asString()).isEqualTo(Agent.VERSION);
        assertThat(connected.get("gcp_connected_since").asString()).isNotBlank();
        assertThat(connected.get("gcp_directories").get(0).asString()).startsWith("data|rw|");

        // the waiting task goes on and ends; and a tree back out of the agent
        JsonNode in = ended(waiting);
        assertThat(in.get("status").asString()).as(in.toString()).isEqualTo("SUCCEEDED");
        assertThat(snapshot(data.resolve("in"))).isEqualTo(snapshot(tree));
        assertThat(eventCodes(alice, waiting)).contains("GC_NOT_CONNECTED");
        JsonNode out = ended(submit(alice, "alice#laptop", "/data/in", "alice#site", "/back", true));
        assertThat(out.get("status").asString()).as(out.toString()).isEqualTo("SUCCEEDED");
        assertThat(snapshot(SITE.resolve("back"))).isEqualTo(snapshot(tree));

        // only its owner's tasks reach it
        ApiClient.Answer refused = bob.post(
                "/v0.10/transfer", transfer("alice#laptop", "/data/in/a.txt", "alice#site", "/bob.txt", false));
        assertThat(refused.status()).as(refused.body().toString()).isEqualTo(404);
        assertThat(bob.get("/v0.10/endpoint/alice%23laptop").status()).isEqualTo(404);

        // the agent stopped mid-file (it sends at 2 MB/s): the task waits and ends once it is back
        write(data.resolve("big.bin"), random(8_000_000, 3));
        String cut = submit(alice, "alice#laptop", "/data/big.bin", "alice#site", "/big.bin", false);
        await().atMost(Duration.ofSeconds(60)).until(() -> size(SITE.resolve("big.bin")) > 1_000_000);
        agent.close();
        await().atMost(Duration.ofSeconds(60))
                .until(
                        () -> alice.get("/v0.10/task/" + cut).body(),
                        t -> "GC_NOT_CONNECTED".equals(t.get("nice_status").asString()));
        assertThat(alice.get("/v0.10/endpoint/alice%23laptop")
                        .body()
                        .get("gcp_connected")
                        .asBoolean())
                .isFalse();
        agent = Agent.start(home, slow, agentEvents::add);
        JsonNode resumed = ended(cut);
        assertThat(resumed.get("status").asString()).as(resumed.toString()).isEqualTo("SUCCEEDED");
        assertThat(Files.readAllBytes(SITE.resolve("big.bin"))).isEqualTo(Files.readAllBytes(data.resolve("big.bin")));

        // the owner revokes it: cut off at once, refused after, its tasks fail
        assertThat(bob.post("/v0.10/endpoint/alice%23laptop/revoke", null).status())
                .isEqualTo(404);
        ApiClient.Answer revoked = alice.post("/v0.10/endpoint/alice%23laptop/revoke", null);
        assertThat(revoked.status()).as(revoked.body().toString()).isEqualTo(200);
        assertThat(revoked.body().get("code").asString()).isEqualTo("Revoked");
        assertThat(agent.await()).as("the agent stops: the relay refuses it").isEqualTo(3);
        JsonNode after = alice.get("/v0.10/endpoint/alice%23laptop").body();
        assertThat(after.get("gcp_connected").asBoolean()).isFalse();
        assertThat(after.get("gcp_revoked").asBoolean()).isTrue();
        JsonNode failed = TaskWaits.ended(
                alice, submit(alice, "alice#laptop", "/data/in/a.txt", "alice#site", "/late.txt", false));
        assertThat(failed.get("status").asString()).isEqualTo("FAILED");
        assertThat(failed.get("fatal_error").get("code").asString()).isEqualTo("ENDPOINT_ERROR");
    }

    /**
     * The web page: a personal endpoint created from the endpoints page shows its setup key once,
     * then whether its agent is connected (since when, version, directories); Revoke cuts the agent
     * off.
     */
    @Test
    void aRefusedPersonalEndpointTakesNoControlPort() throws IOException {
        Path agents = HOME.resolve("connect/agents");
        long before = agentRecords(agents);
        // alice#site is her server endpoint (start()); "a b" is no endpoint name
        ApiClient.Answer taken =
                alice.post("/v0.10/endpoint", Map.of("display_name", "site", "is_globus_connect", true));
        assertThat(taken.status()).as(taken.body().toString()).isEqualTo(409);
        assertThat(taken.body().get("field").asString()).isEqualTo("display_name");
        ApiClient.Answer badName =
                alice.post("/v0.10/endpoint", Map.of("display_name", "a b", "is_globus_connect", true));
        assertThat(badName.status()).as(badName.body().toString()).isEqualTo(400);
        ApiClient.Answer shared = alice.post(
                "/v0.10/endpoint", Map.of("display_name", "open", "is_globus_connect", true, "public", true));
        assertThat(shared.status()).as(shared.body().toString()).isEqualTo(400);
        assertThat(shared.body().get("field").asString()).isEqualTo("public");
        assertThat(agentRecords(agents))
                .as("no agent record (and control port) for an endpoint that was refused")
                .isEqualTo(before);
    }

    private static long agentRecords(Path agents) throws IOException {
        if (!Files.isDirectory(agents)) {
            return 0;
        }
        try (Stream<Path> records = Files.list(agents)) {
            return records.filter(p -> p.toString().endsWith(".properties")).count();
        }
    }

    @Test
    void theEndpointsPageCreatesShowsAndRevokesAPersonalEndpoint() throws Exception {
        PageClient ivy = PageClient.signedIn(port, HOME, "ivy", "ivys-password");
        String created = ivy.follow(ivy.post("/endpoints/personal", "name", "desk"));
        assertThat(created).contains("Personal endpoint ivy#desk was created.");
        java.util.regex.Matcher shown = java.util.regex.Pattern.compile("<code>(fc1-[A-Za-z0-9_-]+)</code>")
                .matcher(created);
        assertThat(shown.find()).as(created).isTrue();
        String key = shown.group(1);
        String again = ivy.page("/endpoints");
        assertThat(again).doesNotContain(key);
        assertThat(PageClient.row(again, "data-endpoint", "ivy#desk")).contains("Not connected");

        Path desk = Files.createDirectories(LAPTOP.resolve("desk"));
        AgentHome home = new AgentHome(LAPTOP.resolve("desk-home"));
        AgentSetup.pair(SetupKey.decode(key), List.of(new MountedStorage.Mount("papers", desk, true)), home);
        try (Agent deskAgent = Agent.start(home, Agent.Options.defaults(), line -> {})) {
            String row = await().atMost(Duration.ofSeconds(60))
                    .until(
                            () -> PageClient.row(ivy.page("/endpoints"), "data-endpoint", "ivy#desk"),
                            r -> r.contains(Agent.VERSION));
            assertThat(row).contains("Connected since", "papers|ro|");
            String id = new ApiClient(port, null)
                    .withPassword("ivy", "ivys-password")
                    .get("/v0.10/endpoint/ivy%23desk")
                    .body()
                    .get("id")
                    .asString();
            String revoked = ivy.follow(ivy.post("/endpoints/" + id + "/revoke"));
            assertThat(revoked).contains("The agent of ivy#desk is revoked and cut off.");
            assertThat(PageClient.row(revoked, "data-endpoint", "ivy#desk")).contains("revoked");
            assertThat(deskAgent.await()).isEqualTo(3);
        }
    }

    private static String submit(
            ApiClient api, String source, String sourcePath, String destination, String destinationPath, boolean tree) {
        ApiClient.Answer accepted =
                api.post("/v0.10/transfer", transfer(source, sourcePath, destination, destinationPath, tree));
        assertThat(accepted.status()).as(String.valueOf(accepted.body())).isEqualTo(202);
        return accepted.body().get("task_id").asString();
    }

    private static Map<String, Object> transfer(
            String source, String sourcePath, String destination, String destinationPath, boolean recursive) {
        Map<String, Object> doc = new HashMap<>();
        doc.put("DATA_TYPE", "transfer");
        doc.put("source_endpoint", source);
        doc.put("destination_endpoint", destination);
        doc.put(
                "DATA",
                List.of(Map.of(
                        "DATA_TYPE",
                        "transfer_item",
                        "source_path",
                        sourcePath,
                        "destination_path",
                        destinationPath,
                        "recursive",
                        recursive)));
        return doc;
    }

    /** @return the task once it leaves ACTIVE; a timeout names its events */
    private JsonNode ended(String taskId) {
        try {
            return TaskWaits.ended(alice, taskId);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError(
                    "task " + taskId + " still ACTIVE; its events: "
                            + alice.get("/v0.10/task/" + taskId + "/event_list").body(),
                    e);
        }
    }

    private static List<String> eventCodes(ApiClient api, String taskId) {
        List<String> codes = new ArrayList<>();
        for (JsonNode e :
                api.get("/v0.10/task/" + taskId + "/event_list").body().get("DATA")) {
            codes.add(e.get("code").asString());
        }
        return codes;
    }

    private static long size(Path file) throws IOException {
        return Files.exists(file) ? Files.size(file) : 0;
    }

    private static int freePortPair() {
        for (int attempt = 0; attempt < 100; attempt++) {
            try (ServerSocket first = new ServerSocket(0)) {
                int port = first.getLocalPort();
                if (port < 65535) {
                    try (ServerSocket second = new ServerSocket(port + 1)) {
                        return port;
                    } catch (IOException taken) {
                        // try another pair
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException("no two free ports in a row");
    }

    private static void write(Path file, byte[] content) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, content);
    }

    private static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    private static Map<String, String> snapshot(Path root) throws Exception {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.filter(Files::isRegularFile).toList()) {
                MessageDigest sha = MessageDigest.getInstance("SHA-256");
                try (InputStream in = Files.newInputStream(path)) {
                    sha.update(in.readAllBytes());
                }
                files.put(root.relativize(path).toString(), HexFormat.of().formatHex(sha.digest()));
            }
        }
        return files;
    }
}
