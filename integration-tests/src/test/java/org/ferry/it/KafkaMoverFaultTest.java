package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.ferry.it.infra.ContainerFaults;
import org.ferry.it.infra.ContainerFaults.Fault;
import org.ferry.it.infra.FtpFaultProxy;
import org.ferry.it.infra.KafkaContainers;
import org.ferry.testing.PostgresContainers;
import org.ferry.testing.RequiresContainers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.kafka.KafkaContainer;
import tools.jackson.databind.JsonNode;

/**
 * Fault tests of the distributed form: ferry-server on PostgreSQL with the Kafka work queue, a real
 * Kafka broker in a container of this class's own, and two {@code ferry-mover} processes in one
 * consumer group, one started before the server (on a broker without Ferry's topics) and one after. A mover killed (kill -9) mid-file: its chunk goes to the other mover, which
 * resumes from the recorded restart markers (the source sends the file once and a bit, not twice);
 * the Kafka broker killed (SIGKILL), frozen (paused) and cut off the network mid-task, through the
 * container engine; a cancel and a deadline moved into the past reaching the movers through the
 * control topic and stopping the data flow; permanent faults with and without
 * {@code skip_source_errors}; verified checksums kept and listed. Each asserts the task's final
 * state and byte-identical destination files (a stopped task: the partial file is shorter than
 * its source).
 */
@RequiresContainers
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KafkaMoverFaultTest {

    private static final long RATE = 16L << 20;
    private static final Pattern STARTED = Pattern.compile("ferry-mover \\S+ started");
    /** The broker's log line each time it is ready to serve (KafkaContainer waits for it too). */
    private static final Pattern BROKER_READY = Pattern.compile("Transitioning from RECOVERY to RUNNING");
    /** A mover's Kafka client finding the broker's port closed. */
    private static final Pattern BROKER_REFUSED = Pattern.compile("could not be established");
    /** A mover fencing itself: its results unacknowledged for the fence time. */
    private static final Pattern MOVER_FENCED = Pattern.compile("No result acknowledged by Kafka");
    /** A mover's consumer having asked the broker for the chunks topic: missing, or created and assigned. */
    private static final Pattern CHUNKS_TOPIC_LOOKED_UP =
            Pattern.compile("ferry\\.chunks=UNKNOWN_TOPIC_OR_PARTITION|Adding newly assigned partitions");

    @Container
    static final KafkaContainer KAFKA = KafkaContainers.create();

    private Path work;
    private String jdbcUrl;
    private FaultSites sites;
    private FtpFaultProxy proxy;
    private FaultHarness ferry;
    private final List<ManagedProcess> movers = new ArrayList<>();

    @BeforeAll
    void start(@TempDir Path classWork) throws Exception {
        work = classWork;
        jdbcUrl = PostgresContainers.createDatabase(PostgresContainers.shared(), "kafka_faults");
        sites = FaultSites.start(work, RATE);
        // deployments start movers and servers in any order: one mover before the server, on a
        // broker that has no Ferry topic yet (it looks the chunks topic up and must not create it)
        startMover("mover-1").awaitOutput(CHUNKS_TOPIC_LOOKED_UP, Duration.ofSeconds(60));
        ferry = FaultHarness.onPostgres(
                        work,
                        jdbcUrl,
                        "--ferry.queue.type=kafka",
                        "--ferry.kafka.bootstrap-servers=" + KAFKA.getBootstrapServers(),
                        "--ferry.kafka.chunk-partitions=4",
                        "--ferry.transfer.chunk-timeout=8s",
                        "--ferry.transfer.max-active-chunks=4",
                        "--ferry.transfer.chunk-max-files=50")
                .start();
        ferry.endpoints(sites);
        proxy = new FtpFaultProxy(sites.destinationPort()); // carries the data connections of admin#dstp
        ferry.endpoint("admin#dstp", proxy.port());
        startMover("mover-2");
    }

    private ManagedProcess startMover(String name) throws Exception {
        List<String> command = new ArrayList<>(Launchers.fromBuild().ferryMover());
        command.addAll(List.of(
                "--bootstrap-servers",
                KAFKA.getBootstrapServers(),
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
        for (AutoCloseable part : new AutoCloseable[] {ferry, proxy, sites}) {
            if (part != null) {
                part.close();
            }
        }
    }

    private Path bigFile(String name, int mebibytes, long seed) throws Exception {
        Path root = Files.createDirectories(sites.sourceRoot().resolve(name));
        byte[] data = new byte[mebibytes << 20];
        new Random(seed).nextBytes(data);
        Files.write(root.resolve("big.bin"), data);
        return root;
    }

    /** @return the mover running the task's active chunk, from the database; null while none reported */
    private String activeMover(String taskId) throws Exception {
        try (Connection connection = DriverManager.getConnection(jdbcUrl);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("select mover from chunk where state = 'ACTIVE' and task_id = '"
                        + taskId + "' and mover is not null")) {
            return rows.next() ? rows.getString(1) : null;
        }
    }

    /** @return bytes the destination acknowledged for the task's files, from the database */
    private long acknowledged(String taskId) throws Exception {
        try (Connection connection = DriverManager.getConnection(jdbcUrl);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(
                        "select coalesce(sum(bytes_acknowledged), 0) from transfer_file where task_id = '" + taskId
                                + "'")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /**
     * The mover started before the server did not create the chunks topic with the broker's one
     * partition: the server made it with four, and the movers' group reads all four (a chunk on a
     * partition no mover reads would wait minutes for a metadata refresh, then for the chunk
     * timeout).
     */
    @Test
    @Order(1)
    void aMoverStartedBeforeTheServerReadsEveryChunkPartition() throws Exception {
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.getBootstrapServers()))) {
            TopicDescription chunks = admin.describeTopics(List.of("ferry.chunks"))
                    .allTopicNames()
                    .get()
                    .get("ferry.chunks");
            assertThat(chunks.partitions()).hasSize(4);
            FaultHarness.awaitTrue(
                    "the movers' group reading the four chunk partitions",
                    () ->
                            admin
                                            .describeConsumerGroups(List.of("ferry-movers"))
                                            .all()
                                            .get()
                                            .get("ferry-movers")
                                            .members()
                                            .stream()
                                            .flatMap(member -> member.assignment().topicPartitions().stream())
                                            .filter(partition ->
                                                    partition.topic().equals("ferry.chunks"))
                                            .map(TopicPartition::partition)
                                            .distinct()
                                            .count()
                                    == 4);
        }
    }

    @Test
    void aMoverKilledMidFileLosesNothingAndItsSuccessorResumesFromTheMarkers() throws Exception {
        int mebibytes = 96;
        long size = (long) mebibytes << 20;
        Path original = bigFile("mover-kill", mebibytes, 1);
        long carriedBefore = proxy.dataBytes();
        // the data stalls at three quarters of the file until the kill: the file cannot end first
        proxy.holdDataAt(carriedBefore + size * 3 / 4);
        String taskId;
        ManagedProcess killed;
        try {
            taskId = ferry.submit(FaultHarness.recursive("admin#src", "admin#dstp", "/mover-kill", "/mover-kill"));
            FaultHarness.awaitTrue(
                    "restart markers past 5/8 of the file",
                    () -> acknowledged(taskId) > size * 5 / 8 && activeMover(taskId) != null);
            String victim = activeMover(taskId);
            killed = movers.stream()
                    .filter(m -> victim.equals(m.name()))
                    .findFirst()
                    .orElseThrow();
            killed.kill();
        } finally {
            proxy.releaseData();
        }
        JsonNode task = ferry.awaitEnd(taskId);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        FaultHarness.assertIdentical(original, sites.destinationRoot().resolve("mover-kill"));
        assertThat(ferry.events(taskId)).contains("CONNECTION_BROKEN"); // "a mover went silent"
        // resumed from the markers, not sent again from byte 0: the source sent less than 1.5 times
        // the file (from byte 0 it would have been 3/4 + 1 = 1.75 times)
        long sent = proxy.dataBytes() - carriedBefore;
        System.out.printf("mover-kill: the source sent %.2f times the file%n", (double) sent / size);
        assertThat(sent)
                .as("bytes the source sent, counted on the data connections")
                .isLessThan(size * 3 / 2);
        String survivor = movers.stream()
                .filter(m -> m != killed)
                .findFirst()
                .orElseThrow()
                .output();
        assertThat(survivor).contains("Chunk");
        movers.remove(killed);
        startMover(killed.name()); // two movers again for the next test
    }

    /** @return the task's lease owner, from the database; null while none (or the task ended) */
    private String leaseOwner(String taskId) throws Exception {
        try (Connection connection = DriverManager.getConnection(jdbcUrl);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("select lease_owner from task where id = '" + taskId + "'")) {
            return rows.next() ? rows.getString(1) : null;
        }
    }

    /** @return how many chunks of the task were dispatched so far, from the database */
    private int chunks(String taskId) throws Exception {
        try (Connection connection = DriverManager.getConnection(jdbcUrl);
                Statement statement = connection.createStatement();
                ResultSet rows =
                        statement.executeQuery("select count(*) from chunk where task_id = '" + taskId + "'")) {
            rows.next();
            return rows.getInt(1);
        }
    }

    /**
     * Issue 34, several servers: a second ferry-server ({@code b}, lease 4 s) on this class's
     * PostgreSQL database and Kafka broker beside the first. While both live, each drives the
     * tasks submitted to it (a task is claimed by the instance its POST reached; a load balancer in
     * front spreads them). {@code b}'s task of three files, one chunk at a time, is held mid-file
     * at the proxy (so is the first server's task); {@code b} is killed with SIGKILL and never
     * started again. The first server takes the task over once {@code b}'s lease runs out,
     * dispatches the files {@code b} never did, and the task ends SUCCEEDED with byte-identical
     * files. Costs one more server start, the lease and a few seconds of transfer.
     */
    @Test
    void aSecondServerTakesOverTheTaskOfAServerKilledMidTask() throws Exception {
        Path tree = Files.createDirectories(sites.sourceRoot().resolve("takeover"));
        Path spread = Files.createDirectories(sites.sourceRoot().resolve("spread"));
        Random random = new Random(34);
        byte[] data = new byte[4 << 20];
        for (int i = 0; i < 3; i++) {
            random.nextBytes(data);
            Files.write(tree.resolve("f" + i + ".bin"), data);
        }
        random.nextBytes(data);
        Files.write(spread.resolve("f.bin"), data);
        ferry.endpoint("admin#dstq", proxy.port()); // a second pair through the proxy, for the first server's task
        String token = Files.readString(work.resolve("home/token")).trim();
        FerryServerProcess b = FerryServerProcess.start(
                Launchers.fromBuild(),
                Files.createDirectories(work.resolve("home-b")),
                work.resolve("ferry-server-b.log"),
                List.of(
                        "--spring.datasource.url=" + jdbcUrl,
                        "--ferry.scheduler.instance-id=b",
                        "--ferry.transfer.lease=4s",
                        "--ferry.queue.type=kafka",
                        "--ferry.kafka.bootstrap-servers=" + KAFKA.getBootstrapServers(),
                        "--ferry.kafka.chunk-partitions=4",
                        "--ferry.transfer.chunk-timeout=8s",
                        "--ferry.transfer.max-active-chunks-per-endpoint-pair=1",
                        "--ferry.transfer.chunk-max-files=1"));
        long before = proxy.dataBytes();
        // the data of both tasks stalls once 2 MiB went through, until the first server has b's task
        proxy.holdDataAt(before + (2 << 20));
        String taskId;
        String firstTask;
        try {
            taskId = new RestClient(b.apiUrl(), token)
                    .post(
                            "/v0.10/transfer",
                            FaultHarness.recursive("admin#src", "admin#dstp", "/takeover", "/takeover"))
                    .get("task_id")
                    .asString();
            firstTask = ferry.submit(FaultHarness.recursive("admin#src", "admin#dstq", "/spread", "/spread"));
            FaultHarness.awaitTrue(
                    "a chunk of each task dispatched, the data held",
                    () -> chunks(taskId) == 1 && chunks(firstTask) == 1 && proxy.dataBytes() >= before + (2 << 20));
            // while both live, each drives the task submitted to it
            assertThat(leaseOwner(taskId)).isEqualTo("b");
            String first = leaseOwner(firstTask);
            assertThat(first).isNotNull().isNotEqualTo("b");
            assertThat(chunks(taskId))
                    .as("b dispatches one chunk of its pair at a time")
                    .isEqualTo(1);
            b.kill();
            long killed = System.nanoTime();
            FaultHarness.awaitTrue("the first server taking the task over", () -> first.equals(leaseOwner(taskId)));
            System.out.printf(
                    "takeover: the first server leased the task %d ms after the kill (lease 4 s)%n",
                    (System.nanoTime() - killed) / 1_000_000);
        } finally {
            proxy.releaseData();
            b.close();
        }
        JsonNode task = ferry.awaitEnd(taskId);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        assertThat(task.get("files_transferred").asLong()).isEqualTo(3);
        FaultHarness.assertIdentical(tree, sites.destinationRoot().resolve("takeover"));
        assertThat(chunks(taskId))
                .as("the survivor dispatched the files b never did")
                .isGreaterThan(1);
        JsonNode other = ferry.awaitEnd(firstTask);
        assertThat(other.get("status").asString()).as(other.toString()).isEqualTo("SUCCEEDED");
        FaultHarness.assertIdentical(spread, sites.destinationRoot().resolve("spread"));
    }

    /** @return how often the movers have logged a line of {@code pattern} */
    private int moverLines(Pattern pattern) {
        int lines = 0;
        for (ManagedProcess mover : movers) {
            try {
                lines += (int) pattern.matcher(mover.output()).results().count();
            } catch (IOException e) {
                // not readable now: counted next time
            }
        }
        return lines;
    }

    @ParameterizedTest(name = "the broker {0} mid-task")
    @EnumSource(Fault.class)
    void theBrokerFailingMidTaskLosesNothing(Fault fault) throws Exception {
        String name = "broker-" + fault.name().toLowerCase(Locale.ROOT);
        Path original = bigFile(name, 64, 2 + fault.ordinal());
        Path copy = sites.destinationRoot().resolve(name);
        String taskId = ferry.submit(FaultHarness.recursive("admin#src", "admin#dst", "/" + name, "/" + name));
        FaultHarness.awaitTrue("bytes arriving", () -> FaultHarness.arrived(copy.resolve("big.bin")) > (8 << 20));
        ContainerFaults broker = new ContainerFaults(KAFKA, BROKER_READY);
        // a frozen broker refuses nothing: the movers fence themselves; otherwise its port refuses
        Pattern felt = fault == Fault.PAUSED ? MOVER_FENCED : BROKER_REFUSED;
        int before = moverLines(felt);
        fault.strike(broker);
        try {
            // down until the movers have met the outage (not for a fixed time)
            FaultHarness.awaitTrue("the movers meeting the outage", () -> moverLines(felt) > before);
        } finally {
            fault.heal(broker);
        }
        JsonNode task = ferry.awaitEnd(taskId);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        FaultHarness.assertIdentical(original, copy);
    }

    @Test
    void manyFilesInManyChunks() throws Exception {
        Path root = Files.createDirectories(sites.sourceRoot().resolve("many"));
        Random random = new Random(9);
        for (int i = 0; i < 300; i++) {
            byte[] data = new byte[2000 + random.nextInt(30_000)];
            random.nextBytes(data);
            Files.write(root.resolve("f" + i), data);
        }
        Map<String, Object> transfer = FaultHarness.recursive("admin#src", "admin#dst", "/many", "/many");
        transfer.put("verify_checksum", true);
        String taskId = ferry.submit(transfer);
        JsonNode task = ferry.awaitEnd(taskId);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        assertThat(task.get("files_transferred").asLong()).isEqualTo(300);
        FaultHarness.assertIdentical(root, sites.destinationRoot().resolve("many"));
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
        Path root = Files.createDirectories(sites.sourceRoot().resolve(name));
        try (java.io.RandomAccessFile file =
                new java.io.RandomAccessFile(root.resolve("big.bin").toFile(), "rw")) {
            file.setLength((long) mebibytes << 20);
        }
        return root;
    }

    /**
     * Starts a 512 MiB transfer through the proxy, lets 8 MiB through and holds the data at 64 MiB
     * (the transfer stalls there and cannot end by itself), runs {@code stop}, and waits until the
     * proxy sees no data connection open: the movers stopped the data flow. Nothing but a
     * message from the scheduler reaches a mover whose broker is up (no fencing applies), so the
     * connections closing at all shows the control topic at work; the time it took is printed.
     *
     * @return the ended task and the milliseconds from the request to the last data connection's close
     */
    private Stopped stopsTheDataFlow(String name, StopAction stop) throws Exception {
        sparseFile(name, 512);
        long before = proxy.dataBytes();
        proxy.holdDataAt(before + (64 << 20));
        try {
            String taskId = ferry.submit(FaultHarness.recursive("admin#src", "admin#dstp", "/" + name, "/" + name));
            FaultHarness.awaitTrue("data flowing through the proxy", () -> proxy.dataBytes() > before + (8 << 20));
            assertThat(proxy.openDataConnections()).isPositive();
            long start = System.nanoTime();
            stop.run(taskId);
            FaultHarness.awaitTrue("the movers closing the data connections", () -> proxy.openDataConnections() == 0);
            long millis = (System.nanoTime() - start) / 1_000_000;
            System.out.printf("%s: data connections closed %d ms after the request%n", name, millis);
            long stoppedAt = proxy.dataBytes();
            JsonNode task = ferry.awaitEnd(taskId);
            assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("FAILED");
            assertThat(FaultHarness.arrived(sites.destinationRoot().resolve(name + "/big.bin")))
                    .as("the partial file stays short: the data flow stopped")
                    .isLessThan(512L << 20);
            // no mover went on with the task: no data connection opened after the stop
            assertThat(proxy.openDataConnections()).isZero();
            assertThat(proxy.dataBytes() - stoppedAt).isZero();
            return new Stopped(task, millis);
        } finally {
            proxy.releaseData();
        }
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
    }

    private Map<String, Object> withAMissingItem(String name) throws Exception {
        Path root = Files.createDirectories(sites.sourceRoot().resolve(name));
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
        JsonNode task = ferry.awaitEnd(taskId);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("FAILED");
        assertThat(task.get("fatal_error").get("code").asString()).isEqualTo("FILE_NOT_FOUND");
        assertThat(task.get("fatal_error").get("description").asString()).contains("/permanent-gone.bin");
        assertThat(task.get("faults").asLong()).as("not retried").isLessThanOrEqualTo(1);
        assertThat(sites.destinationRoot().resolve("permanent-gone.bin")).doesNotExist();
    }

    @Test
    void aPermanentFaultWithSkipSourceErrorsIsSkippedAndTheRestArrives() throws Exception {
        Map<String, Object> transfer = withAMissingItem("skipping");
        transfer.put("skip_source_errors", true);
        String taskId = ferry.submit(transfer);
        JsonNode task = ferry.awaitEnd(taskId);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        assertThat(task.get("subtasks_skipped_errors").asLong()).isEqualTo(1);
        assertThat(task.get("files_transferred").asLong()).isEqualTo(5);
        sites.assertCopied("skipping");
        JsonNode skipped =
                ferry.api().get("/v0.10/task/" + taskId + "/skipped_errors").get("DATA");
        assertThat(skipped.size()).isEqualTo(1);
        assertThat(skipped.get(0).get("source_path").asString()).isEqualTo("/skipping-gone.bin");
        assertThat(skipped.get(0).get("error_code").asString()).isEqualTo("FILE_NOT_FOUND");
        assertThat(sites.destinationRoot().resolve("skipping-gone.bin")).doesNotExist();
    }
}
