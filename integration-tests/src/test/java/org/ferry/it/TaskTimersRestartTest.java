package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.ferry.testing.PostgresContainers;
import org.ferry.testing.RequiresContainers;
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
 * as done only the files that arrived whole. One ferry-server on a real PostgreSQL (the JVM's
 * shared container, a database of this class's own) serves both tests; the source sends at most
 * {@value #RATE} bytes a second, so a transfer is still running when the test strikes.
 */
@RequiresContainers
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TaskTimersRestartTest {

    private static final long RATE = 8L << 20;

    private String jdbcUrl;
    private FaultSites sites;
    private FaultHarness ferry;

    @BeforeAll
    void start(@TempDir Path work) throws Exception {
        jdbcUrl = PostgresContainers.createDatabase(PostgresContainers.shared(), "task_timers");
        sites = FaultSites.start(work, RATE);
        ferry = FaultHarness.onPostgres(work, jdbcUrl).start();
        ferry.endpoints(sites);
    }

    @AfterAll
    void stop() throws Exception {
        for (AutoCloseable part : new AutoCloseable[] {ferry, sites}) {
            if (part != null) {
                part.close();
            }
        }
    }

    /** Three files of 16 MiB and 20 small ones, random bytes: 6 s at the source's rate. */
    private String tree(String name, long seed) throws Exception {
        sites.tree(name, seed, 3, 16, 20);
        return name;
    }

    @Test
    void aTaskInRetryBackOffIsRetriedByTheRestartedServerAndSucceeds() throws Exception {
        String tree = tree("backoff", 15);
        String taskId = ferry.submit(FaultHarness.recursive("admin#src", "admin#dst", "/backoff", "/backoff"));
        FaultHarness.awaitTrue("a partial destination file", () -> sites.partialFileAt(tree));
        sites.stopDestination();
        try {
            JsonNode backingOff = ferry.await(
                    taskId, t -> !t.get("is_ok").asBoolean() && t.get("faults").asLong() > 0, FaultHarness.END);
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
                    FaultHarness.END);
            assertThat(retried.get("status").asString()).isEqualTo("ACTIVE");
            assertThat(retried.get("is_ok").asBoolean()).isFalse();
            assertThat(retried.get("nice_status").asString()).isIn("CONNECT_FAILED", "CONNECTION_BROKEN", "TIMEOUT");
        } finally {
            sites.startDestination();
        }
        JsonNode task = ferry.awaitEnd(taskId);
        assertThat(task.get("status").asString()).as(task.toString()).isEqualTo("SUCCEEDED");
        assertThat(task.get("files_transferred").asLong()).isEqualTo(23);
        sites.assertCopied(tree);
    }

    @Test
    void aDeadlinePassedWhileTheServerWasDownFailsTheTaskExpiredAtRestart() throws Exception {
        String tree = tree("deadline", 16);
        Path original = sites.sourceRoot().resolve(tree);
        Path copy = sites.destinationRoot().resolve(tree);
        String taskId = ferry.submit(FaultHarness.recursive("admin#src", "admin#dst", "/deadline", "/deadline"));
        FaultHarness.awaitTrue("a partial destination file", () -> sites.partialFileAt(tree));
        // a deadline set through the API with the transfer under way, an hour ahead: the server
        // dies long before it
        Instant deadline = Instant.now().plus(Duration.ofHours(1));
        ferry.api().put("/v0.10/task/" + taskId, Map.of("DATA_TYPE", "task", "deadline", deadline.toString()));
        ferry.kill();
        TaskRow atKill = taskRow(taskId);
        assertThat(atKill.status())
                .as("the task was still running when ferry-server was killed, before its deadline %s", deadline)
                .isEqualTo("ACTIVE");
        assertThat(atKill.filesTransferred()).isLessThan(23);
        assertThat(atKill.deadline()).isCloseTo(deadline, within(1, ChronoUnit.SECONDS));

        // the hour passes while the server is down: the row's deadline moves into the past, as
        // the clock would have moved past it, without a test that waits for a clock
        moveDeadlineIntoThePast(taskId);
        ferry.start();
        JsonNode task =
                ferry.await(taskId, t -> !"ACTIVE".equals(t.get("status").asString()), FaultHarness.END);
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
            Path there = sites.destinationRoot().resolve(path.substring(1));
            Path here = sites.sourceRoot()
                    .resolve(file.get("source_path").asString().substring(1));
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
    private record TaskRow(String status, long faults, long filesTransferred, long chunks, Instant deadline) {}

    private TaskRow taskRow(String taskId) throws Exception {
        try (Connection db = DriverManager.getConnection(jdbcUrl);
                PreparedStatement query = db.prepareStatement("select status, faults, files_transferred,"
                        + " (select count(*) from chunk where task_id = task.id), deadline from task where id = ?")) {
            query.setObject(1, UUID.fromString(taskId));
            try (ResultSet row = query.executeQuery()) {
                assertThat(row.next()).isTrue();
                java.sql.Timestamp deadline = row.getTimestamp(5);
                return new TaskRow(
                        row.getString(1),
                        row.getLong(2),
                        row.getLong(3),
                        row.getLong(4),
                        deadline == null ? null : deadline.toInstant());
            }
        }
    }

    /** Sets the task's deadline a second before now, in its row (ferry-server is down). */
    private void moveDeadlineIntoThePast(String taskId) throws Exception {
        try (Connection db = DriverManager.getConnection(jdbcUrl);
                PreparedStatement update =
                        db.prepareStatement("update task set deadline = now() - interval '1 second' where id = ?")) {
            update.setObject(1, UUID.fromString(taskId));
            assertThat(update.executeUpdate()).isEqualTo(1);
        }
    }

    private int succeededRows(String taskId) throws Exception {
        try (Connection db = DriverManager.getConnection(jdbcUrl);
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
