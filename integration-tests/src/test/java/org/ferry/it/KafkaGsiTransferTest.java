package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.gsi.proxy.ProxyRequest;
import org.ferry.it.infra.KafkaContainers;
import org.ferry.mover.testing.GsiTestPki;
import org.ferry.testing.RequiresContainers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.kafka.KafkaContainer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * GSI endpoints on the Kafka path: a ferry-server with {@code ferry.queue.type=kafka} and no
 * embedded mover, a real Kafka broker (a container), a {@code ferry-mover} process given the installation's
 * credential key, and two {@code ferry-gridftp --gsi} servers activated through the CLI with
 * delegated proxies. The chunk messages carry the delegated credentials sealed; the mover opens
 * the GSI sessions with them (no database). An encrypted transfer arrives byte-identical; a
 * credential that expires mid-task stops the mover's chunk, the task goes INACTIVE and resumes
 * after a new activation.
 */
@RequiresContainers
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KafkaGsiTransferTest {

    @Container
    static final KafkaContainer KAFKA = KafkaContainers.create();

    private static final Pattern STARTED = Pattern.compile("ferry-mover \\S+ started");
    private static final String USER_CN = "Kafka User";
    private static final String SOURCE = "admin#gsi-src";
    private static final String DESTINATION = "admin#gsi-dst";
    /** What the source sends per second, over all its data connections. */
    private static final long SOURCE_BYTES_PER_SECOND = 1 << 20;

    private final ObjectMapper json = new ObjectMapper();
    private final List<AutoCloseable> processes = new ArrayList<>();
    private Path work;
    private GsiTestPki pki;
    private Path sourceRoot;
    private Path destinationRoot;
    private FerryServerProcess server;
    private CliRunner cli;
    private Path longProxy;

    @BeforeAll
    void start(@TempDir Path classWork) throws Exception {
        work = classWork;
        Launchers launchers = Launchers.fromBuild();
        pki = GsiTestPki.create(work.resolve("pki"), "KafkaGsi");
        Path hostCert = work.resolve("hostcert.pem");
        Path hostKey = work.resolve("hostkey.pem");
        GsiTestPki.writePemFiles(pki.host(), hostCert, hostKey);
        Path gridMap = Files.writeString(work.resolve("grid-mapfile"), pki.gridMapLine(USER_CN, "ferry"));
        sourceRoot = Files.createDirectories(work.resolve("source"));
        destinationRoot = Files.createDirectories(work.resolve("destination"));
        FerryGridFtpProcess source = started(FerryGridFtpProcess.startGsi(
                launchers,
                sourceRoot,
                work.resolve("source.log"),
                hostCert,
                hostKey,
                pki.trustDirectory(),
                gridMap,
                null,
                "--data-rate-limit",
                Long.toString(SOURCE_BYTES_PER_SECOND)));
        FerryGridFtpProcess destination = started(FerryGridFtpProcess.startGsi(
                launchers,
                destinationRoot,
                work.resolve("destination.log"),
                hostCert,
                hostKey,
                pki.trustDirectory(),
                gridMap));
        Path home = Files.createDirectories(work.resolve("home"));
        server = started(FerryServerProcess.start(
                launchers,
                home,
                work.resolve("server.log"),
                List.of(
                        "--ferry.queue.type=kafka",
                        "--ferry.kafka.bootstrap-servers=" + KAFKA.getBootstrapServers(),
                        "--ferry.kafka.chunk-partitions=2",
                        "--ferry.gsi.ca-dir=" + pki.trustDirectory())));
        // the mover: the server's credential key (made on its first start) and the site's CAs
        List<String> mover = new ArrayList<>(launchers.ferryMover());
        mover.addAll(List.of(
                "--bootstrap-servers",
                KAFKA.getBootstrapServers(),
                "--name",
                "gsi-mover",
                "--credential-key-file",
                home.resolve("credential-key").toString(),
                "--ca-dir",
                pki.trustDirectory().toString()));
        ManagedProcess moverProcess =
                started(ManagedProcess.start("gsi-mover", mover, Map.of(), work.resolve("mover.log")));
        moverProcess.awaitOutput(STARTED, Duration.ofSeconds(60));

        cli = new CliRunner(launchers, server, work);
        expectSuccess(cli.run(60, "endpoint", "add", SOURCE, "--url", source.gsiUrl()));
        expectSuccess(cli.run(60, "endpoint", "add", DESTINATION, "--url", destination.gsiUrl()));
        longProxy = proxyFile(Duration.ofHours(12), "long-proxy.pem");
        for (String endpoint : List.of(SOURCE, DESTINATION)) {
            expectSuccess(cli.run(120, "endpoint", "activate", endpoint, "--delegate-proxy", longProxy.toString()));
        }
    }

    private <T extends AutoCloseable> T started(T process) {
        processes.add(0, process);
        return process;
    }

    @AfterAll
    void stop() throws Exception {
        for (AutoCloseable process : processes) {
            process.close();
        }
    }

    private Path proxyFile(Duration lifetime, String name) throws Exception {
        GsiCredential proxy = pki.proxy(USER_CN, ProxyRequest.impersonation().withLifetime(lifetime));
        Path file = work.resolve(name);
        PemFiles.writeCredential(proxy, file);
        return file;
    }

    @Test
    @Order(1)
    void anEncryptedTreeMovesThroughTheKafkaMoverWithTheDelegatedCredentials() throws Exception {
        Path tree = Files.createDirectories(sourceRoot.resolve("tree/sub"));
        SplittableRandom random = new SplittableRandom(13);
        for (int i = 0; i < 20; i++) {
            byte[] data = new byte[1000 + random.nextInt(20_000)];
            random.nextBytes(data);
            Files.write((i % 2 == 0 ? tree : tree.getParent()).resolve("f" + i + ".bin"), data);
        }
        Map<String, String> expected = TreeDigest.of(sourceRoot.resolve("tree"));

        String taskId = submit(SOURCE + ":/tree", DESTINATION + ":/tree", "--encrypt-data");
        JsonNode done = awaitTask(taskId, t -> !t.path("status").asString().equals("ACTIVE"), "the end");
        assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
        assertThat(done.path("encrypt_data").asBoolean()).isTrue();
        assertThat(TreeDigest.of(destinationRoot.resolve("tree"))).isEqualTo(expected);
    }

    @Test
    @Order(2)
    void aCredentialExpiringUnderTheKafkaMoverMakesTheTaskInactiveAndANewActivationResumesIt() throws Exception {
        Path tree = Files.createDirectories(sourceRoot.resolve("expiring"));
        byte[] data = new byte[(int) (32 * SOURCE_BYTES_PER_SECOND)];
        new SplittableRandom(14).nextBytes(data);
        Files.write(tree.resolve("long.bin"), data);
        Map<String, String> expected = TreeDigest.of(tree);

        // a proxy that lives 40 s: less the 10 s margin it ends long before 32 MiB at 1 MiB/s have moved
        Path shortProxy = proxyFile(Duration.ofSeconds(40), "short-proxy.pem");
        expectSuccess(cli.run(120, "endpoint", "activate", SOURCE, "--delegate-proxy", shortProxy.toString()));
        String taskId = submit(SOURCE + ":/expiring", DESTINATION + ":/expiring");
        JsonNode inactive = awaitTask(taskId, t -> t.path("status").asString().equals("INACTIVE"), "INACTIVE");
        assertThat(inactive.path("nice_status").asString()).isEqualTo("NO_CREDENTIALS");
        assertThat(events(taskId)).anySatisfy(e -> {
            assertThat(e.path("code").asString()).isEqualTo("NO_CREDENTIALS");
            assertThat(e.path("description").asString()).contains(SOURCE).contains("activate");
        });

        expectSuccess(cli.run(120, "endpoint", "activate", SOURCE, "--delegate-proxy", longProxy.toString()));
        JsonNode done = awaitTask(taskId, t -> !t.path("status").asString().matches("ACTIVE|INACTIVE"), "the end");
        assertThat(done.path("status").asString()).as(done.toString()).isEqualTo("SUCCEEDED");
        assertThat(TreeDigest.of(destinationRoot.resolve("expiring"))).isEqualTo(expected);
        assertThat(events(taskId))
                .anySatisfy(e -> assertThat(e.path("code").asString()).isEqualTo("RESUMED"));
    }

    private String submit(String source, String destination, String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("-F", "unix", "transfer", source, destination, "--recursive"));
        args.addAll(List.of(options));
        String taskId =
                expectSuccess(cli.run(60, args.toArray(String[]::new))).stdout().trim();
        assertThat(taskId).matches("[0-9a-f-]{36}");
        return taskId;
    }

    private JsonNode awaitTask(String taskId, Predicate<JsonNode> condition, String what) throws Exception {
        AtomicReference<JsonNode> task = new AtomicReference<>();
        try {
            return Awaitility.await("task " + taskId + ": " + what)
                    .atMost(Duration.ofSeconds(240))
                    .pollInterval(Duration.ofMillis(200))
                    .until(
                            () -> {
                                task.set(api("/v0.10/task/" + taskId));
                                return task.get();
                            },
                            condition);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("task " + taskId + " never reached " + what + ": " + task.get() + "\nevents:\n"
                    + cli.run(60, "events", taskId).stdout());
        }
    }

    private List<JsonNode> events(String taskId) throws Exception {
        List<JsonNode> list = new ArrayList<>();
        api("/v0.10/task/" + taskId + "/event_list?limit=1000").path("DATA").forEach(list::add);
        return list;
    }

    private JsonNode api(String path) throws Exception {
        String token = Files.readString(server.ferryHome().resolve("token")).strip();
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.apiUrl() + path))
                .header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(120))
                .GET()
                .build();
        HttpResponse<String> response =
                HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        return json.readTree(response.body());
    }

    private static CliRunner.Result expectSuccess(CliRunner.Result result) {
        assertThat(result.exitCode()).as(result.describe()).isZero();
        return result;
    }
}
