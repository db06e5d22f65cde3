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
 * markers; the Kafka broker stopped and started mid-task. Each asserts the task's final state and
 * byte-identical destination files.
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

    @Test
    void theKafkaBrokerStoppedAndStartedMidTask() throws Exception {
        Path original = bigFile("broker-restart", 64, 2);
        Path copy = destinationRoot.resolve("broker-restart");
        String taskId =
                ferry.submit(FaultHarness.recursive("admin#src", "admin#dst", "/broker-restart", "/broker-restart"));
        FaultHarness.awaitTrue("bytes arriving", () -> FaultHarness.size(copy.resolve("big.bin")) > (8 << 20), END);
        kafka.stop();
        Thread.sleep(5000);
        kafka.start();
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
        String taskId = ferry.submit(transfer);
        JsonNode task = ferry.awaitEnd(taskId, END);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        assertThat(task.get("files_transferred").asLong()).isEqualTo(300);
        FaultHarness.assertIdentical(root, destinationRoot.resolve("many"));
    }
}
