package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import javax.sql.DataSource;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.repository.EndpointRepository;
import org.ferry.api.store.NewTask;
import org.ferry.api.store.TaskStore;
import org.ferry.scheduler.drive.PlanningJob;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Live progress a user can watch (issue 34, item 7), on the embedded default: a file moving from a
 * server capped at {@value #RATE} bytes/s shows its bytes in flight in the task document (from the
 * destination's performance markers, which the mover asks for every second, where the server's own
 * period is 5 s) with a rate above zero long before it ends, and so does a tree of small files
 * moving in one batch; a task queued behind its owner's
 * limit of chunks says so in {@code nice_status} and {@code nice_status_details}; a task backing
 * off after a fault says after which one and until when; a planning asked to stop (a cancel, a
 * fence) stops at its next file and writes nothing. Each case ends by an event the test controls
 * (a cancel, a stop), never by waiting for the capped transfer.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class LiveProgressTest {

    static final long RATE = 1_000_000;
    private static final Duration PATIENCE = Duration.ofSeconds(120);

    @RegisterExtension
    static final TransferFixture FIXTURE =
            TransferFixture.on("live", TestDatabase.H2).withThrottledSiteA(RATE);

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        FIXTURE.register(registry);
        registry.add("ferry.transfer.max-active-chunks-per-user", () -> "1");
        registry.add("ferry.transfer.retry-initial-backoff", () -> "60s");
        registry.add("ferry.transfer.retry-max-backoff", () -> "60s");
    }

    @LocalServerPort
    int port;

    @Autowired
    DataSource dataSource;

    @Autowired
    PlanningJob planning;

    @Autowired
    TaskStore tasks;

    @Autowired
    EndpointRepository endpoints;

    @Autowired
    TransactionTemplate transactions;

    ApiClient api;

    @BeforeEach
    void connect() {
        try {
            api = FIXTURE.adminApi(port, dataSource);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        if (FIXTURE.registerSites(api, "live")) {
            TransferFixture.createEndpoint(
                    api, TransferFixture.endpoint("admin#live-slow", FIXTURE.throttledUrlA(), "alice", "pw-a"));
            TransferFixture.createEndpoint(
                    api, TransferFixture.endpoint("admin#live-down", "ftp://127.0.0.1:1", "alice", "pw-a"));
        }
    }

    private String submit(String source, String sourcePath, String destinationPath) {
        Map<String, Object> transfer = Map.of(
                "DATA_TYPE",
                "transfer",
                "source_endpoint",
                source,
                "destination_endpoint",
                "admin#live-b",
                "DATA",
                List.of(Map.of(
                        "DATA_TYPE", "transfer_item", "source_path", sourcePath, "destination_path", destinationPath)));
        ApiClient.Answer accepted = api.post("/v0.10/transfer", transfer);
        assertThat(accepted.status()).as(String.valueOf(accepted.body())).isEqualTo(202);
        return accepted.body().get("task_id").asString();
    }

    private Path bigFile(String name) throws IOException {
        byte[] data = new byte[24_000_000]; // above the batch size (16 MiB), 24 s at the cap: moving when the test acts
        new Random(name.hashCode()).nextBytes(data);
        return Files.write(FIXTURE.siteA().resolve(name), data);
    }

    private JsonNode task(String taskId) {
        return api.get("/v0.10/task/" + taskId).body();
    }

    private JsonNode awaitTask(String taskId, String what, Predicate<JsonNode> condition) {
        return await().atMost(PATIENCE)
                .pollInterval(Duration.ofMillis(50))
                .alias(what)
                .until(() -> task(taskId), condition);
    }

    private void cancel(String taskId) {
        assertThat(api.post("/v0.10/task/" + taskId + "/cancel", Map.of()).status())
                .isEqualTo(200);
        TaskWaits.ended(api, taskId);
    }

    @Test
    void bytesInFlightAndTheRateReachTheTaskWhileABigFileMoves() throws Exception {
        bigFile("live.bin");
        String taskId = submit("admin#live-slow", "/live.bin", "/live-copy.bin");
        JsonNode first = awaitTask(
                taskId,
                "the first bytes in flight",
                t -> t.get("bytes_transferred").asLong() > 0);
        long firstBytes = first.get("bytes_transferred").asLong();
        System.out.printf("live progress: first bytes_transferred seen %d (cap %d B/s)%n", firstBytes, RATE);
        // from markers every second, not the server's 5 s: the first figure is about one second's worth
        assertThat(firstBytes).as("the first bytes in flight").isLessThan(3 * RATE);
        JsonNode later = awaitTask(
                taskId,
                "more bytes in flight and a rate",
                t -> t.get("bytes_transferred").asLong() > firstBytes
                        && t.get("effective_bytes_per_second").asLong() > 0);
        assertThat(later.get("status").asString()).isEqualTo("ACTIVE");
        assertThat(later.get("bytes_transferred").asLong())
                .as("still in flight: the file has not arrived")
                .isLessThan(24_000_000);
        assertThat(later.get("effective_bytes_per_second").asLong())
                .as("a rate no higher than the cap allows")
                .isLessThanOrEqualTo(2 * RATE);
        assertThat(later.get("nice_status_details").isNull())
                .as("it does not wait")
                .isTrue();
        cancel(taskId);
    }

    @Test
    void bytesInFlightReachTheTaskWhileATreeOfSmallFilesMoves() throws Exception {
        // ten small files: one lane's batch (the chunk's pipelining is 10), one tar stream between
        // Ferry servers, whose files complete only at its end: the bytes shown before then are the
        // destination's performance markers
        int count = 10;
        int size = 1_000_000; // below the tar streams' per-file limit (1 MiB); 10 s at the cap
        Path tree = Files.createDirectories(FIXTURE.siteA().resolve("live-tree"));
        Random random = new Random(34);
        for (int i = 0; i < count; i++) {
            byte[] data = new byte[size];
            random.nextBytes(data);
            Files.write(tree.resolve("f" + i + ".bin"), data);
        }
        long total = (long) count * size;
        Map<String, Object> transfer = Map.of(
                "DATA_TYPE",
                "transfer",
                "source_endpoint",
                "admin#live-slow",
                "destination_endpoint",
                "admin#live-b",
                "DATA",
                List.of(Map.of(
                        "DATA_TYPE",
                        "transfer_item",
                        "source_path",
                        "/live-tree",
                        "destination_path",
                        "/live-tree-copy",
                        "recursive",
                        true)));
        ApiClient.Answer accepted = api.post("/v0.10/transfer", transfer);
        assertThat(accepted.status()).as(String.valueOf(accepted.body())).isEqualTo(202);
        String taskId = accepted.body().get("task_id").asString();
        // ends as soon as the bytes show, or when the task ends (then the assertions fail at once)
        JsonNode moving = awaitTask(
                taskId,
                "bytes in flight of the tree, or its end",
                t -> !"ACTIVE".equals(t.get("status").asString())
                        || t.get("bytes_transferred").asLong() > 0);
        System.out.printf(
                "live progress of a tree: bytes_transferred %d of %d, files_transferred %d%n",
                moving.get("bytes_transferred").asLong(),
                total,
                moving.get("files_transferred").asLong());
        assertThat(moving.get("status").asString())
                .as("bytes shown while the tree moves: %s", moving)
                .isEqualTo("ACTIVE");
        assertThat(moving.get("bytes_transferred").asLong())
                .as("part of the tree, while it moves")
                .isBetween(1L, total - 1);
        assertThat(moving.get("files_transferred").asLong())
                .as("files count only once arrived and checked")
                .isLessThan(count);
        cancel(taskId);
    }

    @Test
    void aTaskQueuedBehindItsOwnersLimitSaysSo() throws Exception {
        bigFile("hold.bin");
        Files.writeString(FIXTURE.siteA().resolve("small.txt"), "queued\n");
        String holder = submit("admin#live-slow", "/hold.bin", "/hold-copy.bin");
        awaitTask(
                holder,
                "the holder's chunk moving",
                t -> t.get("bytes_transferred").asLong() > 0);
        String queued = submit("admin#live-a", "/small.txt", "/small-copy.txt");
        JsonNode waiting = awaitTask(
                queued,
                "the second task queued",
                t -> "QUEUED_USER_LIMIT".equals(t.get("nice_status").asString()));
        assertThat(waiting.get("is_ok").asBoolean()).isTrue();
        assertThat(waiting.get("nice_status_details").asString()).contains("max-active-chunks-per-user", "admin");
        // a fault code written over the reason (a late fault, a back-off) while it still waits
        // gives way to the reason again: the dispatcher judges by the row, not by a memory of it
        new JdbcTemplate(dataSource)
                .update("update task set nice_status = 'NO_SPACE_LEFT' where id = ?", UUID.fromString(queued));
        awaitTask(
                queued,
                "the reason shown again",
                t -> "QUEUED_USER_LIMIT".equals(t.get("nice_status").asString()));
        cancel(holder); // the slot frees: the queued task moves and ends
        JsonNode ended = TaskWaits.ended(api, queued);
        assertThat(ended.get("status").asString()).as(ended.toString()).isEqualTo("SUCCEEDED");
        assertThat(Files.readString(FIXTURE.siteB().resolve("small-copy.txt"))).isEqualTo("queued\n");
    }

    @Test
    void aPlanningAskedToStopStopsAtItsNextFileAndWritesNothing() throws Exception {
        Files.createDirectories(FIXTURE.siteA().resolve("plan-stop"));
        for (int i = 0; i < 3; i++) {
            Files.writeString(FIXTURE.siteA().resolve("plan-stop/f" + i + ".txt"), "file " + i + "\n");
        }
        Endpoint source = endpoints.findByCanonicalName("admin#live-a").orElseThrow();
        Endpoint destination = endpoints.findByCanonicalName("admin#live-b").orElseThrow();
        // leased by another instance from its first commit on: the engine beside the test leaves it be
        UUID taskId = transactions.execute(status -> {
            UUID id = tasks.create(NewTask.transfer(
                    UUID.randomUUID().toString(),
                    "admin",
                    null,
                    Instant.now(),
                    null,
                    source,
                    destination,
                    NewTask.TransferOptions.none(),
                    List.of(new NewTask.Item("/plan-stop", "/plan-stop-copy", true))));
            new JdbcTemplate(dataSource)
                    .update(
                            "update task set lease_owner = 'elsewhere', lease_expires = ? where id = ?",
                            Timestamp.from(Instant.now().plus(Duration.ofHours(1))),
                            id);
            return id;
        });
        AtomicInteger asked = new AtomicInteger();

        // the stop comes after the first file was found, as a cancel or a fence would
        boolean planned = planning.plan(taskId, () -> asked.incrementAndGet() > 1);

        assertThat(planned).isFalse();
        assertThat(asked.get())
                .as(
                        "stopped at the second file; events %s",
                        new JdbcTemplate(dataSource)
                                .queryForList("select code, description from task_event where task_id = ?", taskId))
                .isEqualTo(2);
        Map<String, Object> row = new JdbcTemplate(dataSource)
                .queryForMap("select plan_state, faults, nice_status, status from task where id = ?", taskId);
        assertThat(row)
                .as("not planned, no fault counted, still ACTIVE")
                .containsEntry("PLAN_STATE", "NEW")
                .containsEntry("FAULTS", 0L)
                .containsEntry("NICE_STATUS", "OK")
                .containsEntry("STATUS", "ACTIVE");
        assertThat(new JdbcTemplate(dataSource)
                        .queryForObject("select count(*) from transfer_file where task_id = ?", Long.class, taskId))
                .as("no file rows")
                .isZero();
        new JdbcTemplate(dataSource).update("update task set status = 'FAILED' where id = ?", taskId);
    }

    @Test
    void aTaskBackingOffSaysAfterWhichFaultAndUntilWhen() {
        String taskId = submit("admin#live-down", "/nothing.bin", "/nothing-copy.bin");
        JsonNode backingOff = awaitTask(
                taskId, "a back-off", t -> !t.get("nice_status_expires_in").isNull());
        String code = backingOff.get("nice_status").asString();
        assertThat(backingOff.get("is_ok").asBoolean()).isFalse();
        assertThat(backingOff.get("nice_status_details").asString())
                .startsWith("Backing off after " + code + " (1 fault): tried again at ");
        assertThat(backingOff.get("nice_status_expires_in").asLong()).isBetween(1L, 60L);
        cancel(taskId);
    }
}
