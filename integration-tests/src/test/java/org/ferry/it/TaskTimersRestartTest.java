package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
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
 * Task deadlines and retry back-off survive a kill -9 of ferry-server (issue 15 item 2). Ferry
 * keeps both as columns of the task row ({@code deadline}, {@code retry_after},
 * {@code consecutive_faults}) that every tick of the scheduler reads, not in memory: a task backing
 * off from a destination that is down is retried by the restarted server and succeeds once the
 * destination is back; a task whose deadline passed while ferry-server was down fails
 * {@code EXPIRED} on the restarted server's first ticks, before it dispatches another chunk, and counts
 * as done only the files that arrived whole. One ferry-server on a real PostgreSQL serves both
 * tests; the source sends at most {@value #RATE} bytes a second, so a transfer is still running
 * when the test strikes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TaskTimersRestartTest {

    private static final long RATE = 8L << 20;
    private static final Duration END = Duration.ofSeconds(180);

    private Path sourceRoot;
    private Path destinationRoot;
    private PostgresServer postgres;
    private GridFtpServer source;
    private GridFtpServer destination;
    private GridFtpServerConfig destinationConfig;
    private FaultHarness ferry;

    @BeforeAll
    void start(@TempDir Path work) throws Exception {
        sourceRoot = Files.createDirectories(work.resolve("source"));
        destinationRoot = Files.createDirectories(work.resolve("destination"));
        postgres = PostgresServer.start(work.resolve("postgres"));
        source = GridFtpServer.start(GridFtpServerConfig.loopback(sourceRoot)
                .withAnonymousAllowed(true)
                .withMarkerInterval(Duration.ofMillis(200))
                .withDataRateLimit(RATE));
        destinationConfig = GridFtpServerConfig.loopback(destinationRoot)
                .withAnonymousAllowed(true)
                .withMarkerInterval(Duration.ofMillis(200));
        destination = GridFtpServer.start(destinationConfig);
        // the same port when the destination comes back: the endpoint names it
        destinationConfig = destinationConfig.withPort(destination.port());
        ferry = new FaultHarness(
                        work,
                        List.of(
                                "--spring.datasource.url=" + postgres.jdbcUrl(),
                                "--ferry.transfer.retry-initial-backoff=500ms",
                                "--ferry.transfer.retry-max-backoff=3s"))
                .start();
        ferry.endpoint("admin#src", source.port());
        ferry.endpoint("admin#dst", destination.port());
    }

    @AfterAll
    void stop() throws Exception {
        for (AutoCloseable part : new AutoCloseable[] {ferry, source, destination, postgres}) {
            if (part != null) {
                part.close();
            }
        }
    }

    /** Three files of 16 MiB and 20 small ones, random bytes: 6 s at the source's rate. */
    private Path tree(String name, long seed) throws Exception {
        Path root = Files.createDirectories(sourceRoot.resolve(name));
        Random random = new Random(seed);
        for (int i = 0; i < 3; i++) {
            byte[] big = new byte[16 << 20];
            random.nextBytes(big);
            Files.write(root.resolve("big-" + i + ".bin"), big);
        }
        Files.createDirectories(root.resolve("small"));
        for (int i = 0; i < 20; i++) {
            byte[] small = new byte[1000 + random.nextInt(20_000)];
            random.nextBytes(small);
            Files.write(root.resolve("small/s" + i + ".dat"), small);
        }
        return root;
    }

    /** True once some big file of the copy is there but shorter than its source: a transfer in flight. */
    private static boolean partialFileAt(Path copy, Path original) {
        for (int i = 0; i < 3; i++) {
            long there = FaultHarness.size(copy.resolve("big-" + i + ".bin"));
            if (there > 0 && there < FaultHarness.size(original.resolve("big-" + i + ".bin"))) {
                return true;
            }
        }
        return false;
    }

    @Test
    void aTaskInRetryBackOffIsRetriedByTheRestartedServerAndSucceeds() throws Exception {
        Path original = tree("backoff", 15);
        Path copy = destinationRoot.resolve("backoff");
        String taskId = ferry.submit(FaultHarness.recursive("admin#src", "admin#dst", "/backoff", "/backoff"));
        FaultHarness.awaitTrue("a partial destination file", () -> partialFileAt(copy, original), END);
        destination.close();
        try {
            JsonNode backingOff = ferry.await(
                    taskId, t -> !t.get("is_ok").asBoolean() && t.get("faults").asLong() > 0, END);
            assertThat(backingOff.get("status").asString()).isEqualTo("ACTIVE");
            String fault = backingOff.get("nice_status").asString();
            assertThat(fault).isIn("CONNECT_FAILED", "CONNECTION_BROKEN", "TIMEOUT");
            assertThat(ferry.events(taskId)).contains(fault);
            int errorsBeforeKill = errorEvents(taskId);

            ferry.kill();
            ferry.start();
            // the restarted server read the task's back-off from its row and tries again by
            // itself: a new fault while the destination is still down
            JsonNode retried = ferry.await(
                    taskId,
                    t -> !"ACTIVE".equals(t.get("status").asString()) || errorEventsOrZero(taskId) > errorsBeforeKill,
                    END);
            assertThat(retried.get("status").asString()).isEqualTo("ACTIVE");
            assertThat(retried.get("is_ok").asBoolean()).isFalse();
            assertThat(retried.get("nice_status").asString()).isIn("CONNECT_FAILED", "CONNECTION_BROKEN", "TIMEOUT");
        } finally {
            destination = GridFtpServer.start(destinationConfig);
        }
        JsonNode task = ferry.awaitEnd(taskId, END);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        assertThat(task.get("files_transferred").asLong()).isEqualTo(23);
        FaultHarness.assertIdentical(original, copy);
    }

    @Test
    void aDeadlinePassedWhileTheServerWasDownFailsTheTaskExpiredAtRestart() throws Exception {
        Path original = tree("deadline", 16);
        Path copy = destinationRoot.resolve("deadline");
        String taskId = ferry.submit(FaultHarness.recursive("admin#src", "admin#dst", "/deadline", "/deadline"));
        FaultHarness.awaitTrue("a partial destination file", () -> partialFileAt(copy, original), END);
        // The deadline comes a few seconds ahead only now, with the transfer under way, and the
        // server dies at once: a deadline set at submission would have to outlast the planning
        // and the first bytes, however slow the machine, before the kill.
        Instant deadline = Instant.now().plusSeconds(5);
        ferry.api().put("/v0.10/task/" + taskId, Map.of("DATA_TYPE", "task", "deadline", deadline.toString()));
        ferry.kill();
        TaskRow atKill = taskRow(taskId);
        assertThat(atKill.status())
                .as("the task was still running when ferry-server was killed, before its deadline %s", deadline)
                .isEqualTo("ACTIVE");
        assertThat(atKill.filesTransferred()).isLessThan(23);

        FaultHarness.awaitTrue("the deadline passing", () -> Instant.now().isAfter(deadline), END);
        ferry.start();
        JsonNode task =
                ferry.await(taskId, t -> !"ACTIVE".equals(t.get("status").asString()), Duration.ofSeconds(60));
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("FAILED");
        assertThat(task.get("fatal_error").get("code").asString()).isEqualTo("EXPIRED");
        assertThat(ferry.events(taskId).get(0)).isEqualTo("EXPIRED");
        // ended on the restarted server's first ticks: it dispatched no chunk and tried nothing more
        TaskRow atEnd = taskRow(taskId);
        assertThat(atEnd.chunks()).isEqualTo(atKill.chunks());
        assertThat(atEnd.faults()).isEqualTo(atKill.faults());
        assertThat(atEnd.filesTransferred()).isEqualTo(atKill.filesTransferred());

        // done means whole: every file counted as transferred is byte-identical to its source, and
        // the file cut off by the kill is not among them
        Set<String> done = new HashSet<>();
        for (JsonNode file : ferry.api()
                .get("/v0.10/task/" + taskId + "/successful_transfers")
                .get("DATA")) {
            String path = file.get("destination_path").asString();
            assertThat(path).startsWith("/deadline/");
            Path there = destinationRoot.resolve(path.substring(1));
            Path here = sourceRoot.resolve(file.get("source_path").asString().substring(1));
            assertThat(Files.mismatch(here, there)).as(path).isEqualTo(-1L);
            done.add(path);
        }
        assertThat((long) done.size())
                .isEqualTo(task.get("files_transferred").asLong())
                .isEqualTo(atKill.filesTransferred())
                .isLessThan(23);
        for (int i = 0; i < 3; i++) {
            String name = "big-" + i + ".bin";
            if (FaultHarness.size(copy.resolve(name)) < FaultHarness.size(original.resolve(name))) {
                assertThat(done).as("a file the kill cut short").doesNotContain("/deadline/" + name);
            }
        }
        assertThat(succeededRows(taskId)).isEqualTo(done.size());
    }

    private int errorEvents(String taskId) throws Exception {
        int errors = 0;
        for (JsonNode event : ferry.api()
                .get("/v0.10/task/" + taskId + "/event_list?limit=1000")
                .get("DATA")) {
            if (event.get("is_error").asBoolean()) {
                errors++;
            }
        }
        return errors;
    }

    /** As {@link #errorEvents}, 0 while the restarted server does not answer yet. */
    private int errorEventsOrZero(String taskId) {
        try {
            return errorEvents(taskId);
        } catch (Exception e) {
            return 0;
        }
    }

    /** The task row as PostgreSQL has it, read while ferry-server may be down. */
    private record TaskRow(String status, long faults, long filesTransferred, long chunks) {}

    private TaskRow taskRow(String taskId) throws Exception {
        try (Connection db = DriverManager.getConnection(postgres.jdbcUrl());
                PreparedStatement query = db.prepareStatement("select status, faults, files_transferred,"
                        + " (select count(*) from chunk where task_id = task.id) from task where id = ?")) {
            query.setObject(1, UUID.fromString(taskId));
            try (ResultSet row = query.executeQuery()) {
                assertThat(row.next()).isTrue();
                return new TaskRow(row.getString(1), row.getLong(2), row.getLong(3), row.getLong(4));
            }
        }
    }

    private int succeededRows(String taskId) throws Exception {
        try (Connection db = DriverManager.getConnection(postgres.jdbcUrl());
                PreparedStatement query = db.prepareStatement(
                        "select count(*) from transfer_file where task_id = ? and state = 'SUCCEEDED'")) {
            query.setObject(1, UUID.fromString(taskId));
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return row.getInt(1);
            }
        }
    }
}
