package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import org.ferry.it.infra.FtpFaultProxy;
import org.ferry.it.infra.KafkaBroker;
import org.ferry.it.infra.PostgresServer;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Fault tests of the distributed form: ferry-server on PostgreSQL with the Kafka work queue, a real
 * Kafka broker process, and two {@code ferry-mover} processes in one consumer group. A mover killed
 * (kill -9) mid-file: its chunk goes to the other mover, which resumes from the recorded restart
 * markers; the Kafka broker stopped and started mid-task; a cancel and a deadline moved into the
 * past reaching the movers through the control topic and stopping the data flow; permanent faults
 * with and without {@code skip_source_errors}; verified checksums kept and listed. Each asserts the
 * task's final state and byte-identical destination files (a stopped task: the partial file is
 * shorter than its source).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KafkaMoverFaultTest {

    private static final long RATE = 16L << 20;
    private static final Duration END = Duration.ofSeconds(180);
    private static final Pattern STARTED = Pattern.compile("ferry-mover \\S+ started");

    private Path work;
    private Path sourceRoot;
    private Path destinationRoot;
    private PostgresServer postgres;
    private KafkaBroker kafka;
    private GridFtpServer source;
    private GridFtpServer destination;
    private FtpFaultProxy proxy;
    private FaultHarness ferry;
    private final List<ManagedProcess> movers = new ArrayList<>();

    @BeforeAll
    void start(@TempDir Path classWork) throws Exception {
        work = classWork;
        Launchers launchers = Launchers.fromBuild();
        sourceRoot = Files.createDirectories(work.resolve("source"));
        destinationRoot = Files.createDirectories(work.resolve("destination"));
        postgres = PostgresServer.start(work.resolve("postgres"));
        kafka = KafkaBroker.start(launchers.repoRoot(), work.resolve("kafka"));
        source = GridFtpServer.start(GridFtpServerConfig.loopback(sourceRoot)
                .withAnonymousAllowed(true)
                .withMarkerInterval(Duration.ofMillis(200))
                .withDataRateLimit(RATE));
        destination = GridFtpServer.start(GridFtpServerConfig.loopback(destinationRoot)
                .withAnonymousAllowed(true)
                .withMarkerInterval(Duration.ofMillis(200)));
        ferry = new FaultHarness(
                        work,
                        List.of(
                                "--spring.datasource.url=" + postgres.jdbcUrl(),
                                "--ferry.queue.type=kafka",
                                "--ferry.kafka.bootstrap-servers=" + kafka.bootstrapServers(),
                                "--ferry.kafka.chunk-partitions=4",
                                "--ferry.transfer.chunk-timeout=8s",
                                "--ferry.transfer.retry-initial-backoff=500ms",
                                "--ferry.transfer.retry-max-backoff=3s",
                                "--ferry.transfer.max-active-chunks=4",
                                "--ferry.transfer.chunk-max-files=50"))
                .start();
        ferry.endpoint("admin#src", source.port());
        ferry.endpoint("admin#dst", destination.port());
        proxy = new FtpFaultProxy(destination.port()); // carries the data connections of admin#dstp
        ferry.endpoint("admin#dstp", proxy.port());
        for (int i = 1; i <= 2; i++) {
            startMover(launchers, "mover-" + i);
        }
    }

    private ManagedProcess startMover(Launchers launchers, String name) throws Exception {
        List<String> command = new ArrayList<>(launchers.ferryMover());
        command.addAll(List.of(
                "--bootstrap-servers",
                kafka.bootstrapServers(),
                "--name",
                name,
                "--fence-seconds",
                "3",
                "--chunks",
                "2"));
        ManagedProcess mover = ManagedProcess.start(name, command, Map.of(), work.resolve(name + ".log"));
        movers.add(mover);
        mover.awaitOutput(STARTED, Duration.ofSeconds(60));
        return mover;
    }

    @AfterAll
    void stop() throws Exception {
        for (ManagedProcess mover : movers) {
            mover.close();
        }
        if (ferry != null) {
            ferry.close();
        }
        if (kafka != null) {
            kafka.close();
        }
        if (proxy != null) {
            proxy.close();
        }
        if (source != null) {
            source.close();
        }
        if (destination != null) {
            destination.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    private Path bigFile(String name, int mebibytes, long seed) throws Exception {
        Path root = Files.createDirectories(sourceRoot.resolve(name));
        byte[] data = new byte[mebibytes << 20];
        new Random(seed).nextBytes(data);
        Files.write(root.resolve("big.bin"), data);
        return root;
    }

    /** @return the mover running the task's active chunk, from the database; null while none reported */
    private String activeMover(String taskId) throws Exception {
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl());
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("select mover from chunk where state = 'ACTIVE' and task_id = '"
                        + taskId + "' and mover is not null")) {
            return rows.next() ? rows.getString(1) : null;
        }
    }

    /** @return bytes the destination acknowledged for the task's files, from the database */
    private long acknowledged(String taskId) throws Exception {
        try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl());
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(
                        "select coalesce(sum(bytes_acknowledged), 0) from transfer_file where task_id = '" + taskId
                                + "'")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    @Test
    void aMoverKilledMidFileLosesNothing() throws Exception {
        Path original = bigFile("mover-kill", 96, 1);
        Path copy = destinationRoot.resolve("mover-kill");
        String taskId = ferry.submit(FaultHarness.recursive("admin#src", "admin#dst", "/mover-kill", "/mover-kill"));
        long[] marked = {0};
        FaultHarness.awaitTrue(
                "restart markers recorded",
                () -> {
                    try {
                        marked[0] = acknowledged(taskId);
                        return marked[0] > (8 << 20) && activeMover(taskId) != null;
                    } catch (Exception e) {
                        return false;
                    }
                },
                END);
        String victim = activeMover(taskId);
        ManagedProcess killed =
                movers.stream().filter(m -> victim.equals(m.name())).findFirst().orElseThrow();
        killed.kill();
        JsonNode task = ferry.awaitEnd(taskId, END);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        FaultHarness.assertIdentical(original, copy);
        assertThat(ferry.events(taskId)).contains("CONNECTION_BROKEN"); // "a mover went silent"
        String survivor = movers.stream()
                .filter(m -> m != killed)
                .findFirst()
                .orElseThrow()
                .output();
        assertThat(survivor).contains("Chunk");
        movers.remove(killed);
        startMover(Launchers.fromBuild(), victim); // two movers again for the next test
    }

    /** @return how often the movers' Kafka clients have logged a lost or refused broker connection */
    private int brokerLosses() {
        int losses = 0;
        for (ManagedProcess mover : movers) {
            try {
                losses += mover.output().split("disconnected|could not be established", -1).length - 1;
            } catch (java.io.IOException e) {
                // not readable now: counted next time
            }
        }
        return losses;
    }

    @Test
    void theKafkaBrokerStoppedAndStartedMidTask() throws Exception {
        Path original = bigFile("broker-restart", 64, 2);
        Path copy = destinationRoot.resolve("broker-restart");
        String taskId =
                ferry.submit(FaultHarness.recursive("admin#src", "admin#dst", "/broker-restart", "/broker-restart"));
        FaultHarness.awaitTrue("bytes arriving", () -> FaultHarness.size(copy.resolve("big.bin")) > (8 << 20), END);
        int felt = brokerLosses();
        kafka.stop();
        try {
            // down until the movers' Kafka clients have lost the broker (not for a fixed time)
            FaultHarness.awaitTrue("the movers losing the broker", () -> brokerLosses() > felt, END);
        } finally {
            kafka.start();
        }
        JsonNode task = ferry.awaitEnd(taskId, END);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        FaultHarness.assertIdentical(original, copy);
    }

    @Test
    void manyFilesInManyChunks() throws Exception {
        Path root = Files.createDirectories(sourceRoot.resolve("many"));
        Random random = new Random(9);
        for (int i = 0; i < 300; i++) {
            byte[] data = new byte[2000 + random.nextInt(30_000)];
            random.nextBytes(data);
            Files.write(root.resolve("f" + i), data);
        }
        Map<String, Object> transfer = FaultHarness.recursive("admin#src", "admin#dst", "/many", "/many");
        transfer.put("verify_checksum", true);
        String taskId = ferry.submit(transfer);
        JsonNode task = ferry.awaitEnd(taskId, END);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        assertThat(task.get("files_transferred").asLong()).isEqualTo(300);
        FaultHarness.assertIdentical(root, destinationRoot.resolve("many"));
        // each file's MD5, verified by the mover at both ends, kept in its row and listed
        JsonNode arrived = ferry.api()
                .get("/v0.10/task/" + taskId + "/successful_transfers")
                .get("DATA");
        assertThat(arrived.size()).isEqualTo(300);
        java.util.HexFormat hex = java.util.HexFormat.of();
        for (JsonNode file : arrived) {
            String name = file.get("source_path").asString().substring("/many/".length());
            byte[] md5 = java.security.MessageDigest.getInstance("MD5").digest(Files.readAllBytes(root.resolve(name)));
            assertThat(file.get("checksum_algorithm").asString()).isEqualTo("MD5");
            assertThat(file.get("checksum").asString()).as(name).isEqualTo(hex.formatHex(md5));
        }
    }

    /** A sparse file of {@code mebibytes} (zeros): at 16 MiB/s its transfer outlasts each test's stop. */
    private Path sparseFile(String name, int mebibytes) throws Exception {
        Path root = Files.createDirectories(sourceRoot.resolve(name));
        try (java.io.RandomAccessFile file =
                new java.io.RandomAccessFile(root.resolve("big.bin").toFile(), "rw")) {
            file.setLength((long) mebibytes << 20);
        }
        return root;
    }

    /**
     * Starts a 512 MiB transfer through the proxy (32 s at the source's rate), waits until 8 MiB
     * went through, runs {@code stop}, and returns how long until the proxy saw no data connection
     * open: the movers stopped the data flow. Without the control topic the transfer would run
     * on for about half a minute (the chunk's own deadline is not the one changed, and no fencing
     * applies while the broker is up).
     *
     * @return the ended task and the milliseconds from the request to the last data connection's close
     */
    private Stopped stopsTheDataFlow(String name, StopAction stop) throws Exception {
        Path root = sparseFile(name, 512);
        String taskId = ferry.submit(FaultHarness.recursive("admin#src", "admin#dstp", "/" + name, "/" + name));
        long before = proxy.dataBytes();
        FaultHarness.awaitTrue("data flowing through the proxy", () -> proxy.dataBytes() > before + (8 << 20), END);
        assertThat(proxy.openDataConnections()).isPositive();
        long start = System.nanoTime();
        stop.run(taskId);
        FaultHarness.awaitTrue(
                "the movers closing the data connections",
                () -> proxy.openDataConnections() == 0,
                Duration.ofSeconds(20));
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("%s: data connections closed %d ms after the request%n", name, millis);
        long stoppedAt = proxy.dataBytes();
        JsonNode task = ferry.awaitEnd(taskId, END);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("FAILED");
        assertThat(FaultHarness.size(destinationRoot.resolve(name + "/big.bin")))
                .as("the partial file stays short: the data flow stopped")
                .isLessThan(512L << 20);
        // no mover went on with the task: no data connection opened after the stop
        assertThat(proxy.openDataConnections()).isZero();
        assertThat(proxy.dataBytes() - stoppedAt).isZero();
        return new Stopped(task, millis);
    }

    private record Stopped(JsonNode task, long millis) {}

    @FunctionalInterface
    private interface StopAction {
        void run(String taskId) throws Exception;
    }

    @Test
    void aCancelReachesTheMoversThroughTheControlTopicAndStopsTheDataFlow() throws Exception {
        Stopped stopped = stopsTheDataFlow(
                "cancel-flow", taskId -> ferry.api().post("/v0.10/task/" + taskId + "/cancel", Map.of()));
        assertThat(stopped.task().get("fatal_error").get("code").asString()).isEqualTo("CANCELED");
        // the target is a second; the bound leaves room for a loaded machine and still fails if
        // only the end of the file (about half a minute away) stopped the flow
        assertThat(stopped.millis()).isLessThan(10_000);
    }

    @Test
    void aDeadlineMovedIntoThePastReachesTheMoversAndStopsTheDataFlow() throws Exception {
        Stopped stopped = stopsTheDataFlow(
                "deadline-flow",
                taskId -> ferry.api()
                        .put(
                                "/v0.10/task/" + taskId,
                                Map.of(
                                        "DATA_TYPE",
                                        "task",
                                        "deadline",
                                        java.time.OffsetDateTime.now()
                                                .minusSeconds(1)
                                                .toString())));
        assertThat(stopped.task().get("fatal_error").get("code").asString()).isEqualTo("EXPIRED");
        assertThat(stopped.millis()).isLessThan(10_000);
    }

    private Map<String, Object> withAMissingItem(String name) throws Exception {
        Path root = Files.createDirectories(sourceRoot.resolve(name));
        Random random = new Random(name.hashCode());
        for (int i = 0; i < 5; i++) {
            byte[] data = new byte[5000 + random.nextInt(50_000)];
            random.nextBytes(data);
            Files.write(root.resolve("f" + i), data);
        }
        Map<String, Object> transfer = FaultHarness.recursive("admin#src", "admin#dst", "/" + name, "/" + name);
        List<Object> items = new ArrayList<>((List<?>) transfer.get("DATA"));
        items.add(Map.of(
                "DATA_TYPE",
                "transfer_item",
                "source_path",
                "/" + name + "-gone.bin",
                "destination_path",
                "/" + name + "-gone.bin"));
        transfer.put("DATA", items);
        return transfer;
    }

    @Test
    void aPermanentFaultFailsTheTaskAtOnceNamingTheFile() throws Exception {
        String taskId = ferry.submit(withAMissingItem("permanent"));
        JsonNode task = ferry.awaitEnd(taskId, END);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("FAILED");
        assertThat(task.get("fatal_error").get("code").asString()).isEqualTo("FILE_NOT_FOUND");
        assertThat(task.get("fatal_error").get("description").asString()).contains("/permanent-gone.bin");
        assertThat(task.get("faults").asLong()).as("not retried").isLessThanOrEqualTo(1);
        assertThat(destinationRoot.resolve("permanent-gone.bin")).doesNotExist();
    }

    @Test
    void aPermanentFaultWithSkipSourceErrorsIsSkippedAndTheRestArrives() throws Exception {
        Map<String, Object> transfer = withAMissingItem("skipping");
        transfer.put("skip_source_errors", true);
        String taskId = ferry.submit(transfer);
        JsonNode task = ferry.awaitEnd(taskId, END);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        assertThat(task.get("subtasks_skipped_errors").asLong()).isEqualTo(1);
        assertThat(task.get("files_transferred").asLong()).isEqualTo(5);
        FaultHarness.assertIdentical(sourceRoot.resolve("skipping"), destinationRoot.resolve("skipping"));
        JsonNode skipped =
                ferry.api().get("/v0.10/task/" + taskId + "/skipped_errors").get("DATA");
        assertThat(skipped.size()).isEqualTo(1);
        assertThat(skipped.get(0).get("source_path").asString()).isEqualTo("/skipping-gone.bin");
        assertThat(skipped.get(0).get("error_code").asString()).isEqualTo("FILE_NOT_FOUND");
        assertThat(destinationRoot.resolve("skipping-gone.bin")).doesNotExist();
    }
}
