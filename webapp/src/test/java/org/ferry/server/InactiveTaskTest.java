package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;
import org.ferry.api.lifecycle.EndpointActivatedEvent;
import org.ferry.api.lifecycle.EndpointDeactivatedEvent;
import org.ferry.mover.queue.MessageCodec;
import org.ferry.mover.queue.ResultMessage;
import org.ferry.scheduler.drive.ResultApplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The durable state machine of a task whose endpoint credential runs out (Globus: ACTIVE, then
 * INACTIVE when credentials expire, ACTIVE again when they are renewed): a mover's chunk that
 * stopped for an expired credential ({@code CHUNK_DONE} with {@code NO_CREDENTIALS}) makes the task
 * INACTIVE with an event naming what to do, its arrived files kept and the others back to PENDING
 * with their acknowledged ranges; an activation of the endpoint resumes it; a deactivation
 * suspends an ACTIVE task; and an INACTIVE task fails {@code EXPIRED} at its deadline. Real H2
 * with the service's schema and the running scheduler; rows written directly.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
class InactiveTaskTest {

    private static final Path HOME = TestHomes.create("ferry-inactive");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
        registry.add("ferry.transfer.chunk-timeout", () -> "1h"); // nothing taken as lost meanwhile
        registry.add("ferry.transfer.tick-interval", () -> "200ms");
    }

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    ResultApplier applier;

    @Autowired
    ApplicationEventPublisher publisher;

    static boolean firstTickSeen;
    UUID endpoint;
    UUID taskId;
    long chunk;
    long[] files = new long[3];

    @BeforeEach
    void rows() {
        endpoint = UUID.randomUUID();
        // a GSI endpoint nobody has activated; port 1: nothing listens there
        jdbc.update(
                "insert into endpoint (id, owner_name, canonical_name, display_name, url, username,"
                        + " created_time) values (?, 'admin', ?, 'g', 'gsiftp://127.0.0.1:1', 'anonymous', ?)",
                endpoint,
                "admin#g" + endpoint,
                Timestamp.from(Instant.now()));
        jdbc.update(
                "insert into endpoint_server (endpoint_id, position, scheme, hostname, port) values (?, 0, 'gsiftp',"
                        + " '127.0.0.1', 1)",
                endpoint);
        awaitFirstTick();
        taskId = UUID.randomUUID();
        jdbc.update(
                "insert into task (id, submission_id, owner_name, type, status, nice_status, request_time, deadline,"
                        + " source_endpoint_id, source_endpoint, destination_endpoint_id, destination_endpoint,"
                        + " verify_checksum, files, directories, files_transferred, files_skipped, bytes_transferred,"
                        + " faults, subtasks_total, subtasks_succeeded, subtasks_failed, plan_state, start_time,"
                        + " lease_owner, lease_expires)"
                        + " values (?, ?, 'admin', 'TRANSFER', 'ACTIVE', 'OK', ?, ?, ?, 'g', ?, 'g', false, 3, 0, 0,"
                        + " 0, 0, 0, 3, 0, 0, 'PLANNED', ?, 'the-mover-test', ?)",
                taskId,
                UUID.randomUUID().toString(),
                Timestamp.from(Instant.now()),
                Timestamp.from(Instant.now().plus(Duration.ofHours(1))),
                endpoint,
                endpoint,
                Timestamp.from(Instant.now()),
                // leased by another instance (the one whose mover runs the chunk): this server's
                // ticks leave the task to the results the test applies, instead of racing them
                Timestamp.from(Instant.now().plus(Duration.ofHours(1))));
        jdbc.update(
                "insert into chunk (task_id, owner_name, endpoint_pair, state, files, size_bytes, bytes_in_flight,"
                        + " dispatch_time, heartbeat_time) values (?, 'admin', 'p', 'ACTIVE', 3, 300, 0, ?, ?)",
                taskId,
                Timestamp.from(Instant.now()),
                Timestamp.from(Instant.now()));
        chunk = jdbc.queryForObject("select max(id) from chunk where task_id = ?", Long.class, taskId);
        for (int i = 0; i < 3; i++) {
            jdbc.update(
                    "insert into transfer_file (task_id, source_path, destination_path, size_bytes, state, chunk_id,"
                            + " attempts, bytes_acknowledged) values (?, ?, ?, 100, 'ACTIVE', ?, 0, 0)",
                    taskId,
                    "/s" + i,
                    "/d" + i,
                    chunk);
            files[i] = jdbc.queryForObject(
                    "select id from transfer_file where task_id = ? and source_path = ?", Long.class, taskId, "/s" + i);
        }
    }

    /**
     * On its first tick the scheduler takes the chunks its JVM's earlier run left ACTIVE as lost:
     * the test's rows come after that. A probe task with nothing to move ends SUCCEEDED on a tick.
     */
    private void awaitFirstTick() {
        if (firstTickSeen) {
            return;
        }
        UUID probe = UUID.randomUUID();
        jdbc.update(
                "insert into task (id, submission_id, owner_name, type, status, nice_status, request_time,"
                        + " source_endpoint_id, source_endpoint, destination_endpoint_id, destination_endpoint,"
                        + " verify_checksum, files, directories, files_transferred, files_skipped, bytes_transferred,"
                        + " faults, subtasks_total, subtasks_succeeded, subtasks_failed, plan_state)"
                        + " values (?, ?, 'admin', 'TRANSFER', 'ACTIVE', 'OK', ?, ?, 'g', ?, 'g', false, 0, 0, 0, 0,"
                        + " 0, 0, 0, 0, 0, 'PLANNED')",
                probe,
                UUID.randomUUID().toString(),
                Timestamp.from(Instant.now()),
                endpoint,
                endpoint);
        await(
                () -> "SUCCEEDED"
                        .equals(jdbc.queryForObject("select status from task where id = ?", String.class, probe)),
                "the scheduler's first tick");
        firstTickSeen = true;
    }

    private ResultMessage result(ResultMessage.Type type, long fileId, long bytes, String code, String text) {
        return new ResultMessage(
                MessageCodec.VERSION,
                type,
                taskId,
                chunk,
                fileId,
                bytes,
                0,
                false,
                code,
                false,
                false,
                text,
                type == ResultMessage.Type.MARKER ? "0-30" : null,
                null, // no checksum
                "test",
                System.currentTimeMillis(),
                null);
    }

    private String status() {
        return jdbc.queryForObject("select status from task where id = ?", String.class, taskId);
    }

    private List<Map<String, Object>> events(String code) {
        return jdbc.queryForList(
                "select description from task_event where task_id = ? and code = ? order by id", taskId, code);
    }

    private static void await(BooleanSupplier condition, String what) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(50))
                .alias(what)
                .until(condition::getAsBoolean);
    }

    @Test
    void aChunkStoppedForAnExpiredCredentialMakesTheTaskInactiveAndAnActivationResumesIt() throws Exception {
        applier.apply(List.of(
                result(ResultMessage.Type.FILE_ARRIVED, files[0], 100, null, null),
                result(ResultMessage.Type.MARKER, files[1], 0, null, null),
                result(
                        ResultMessage.Type.CHUNK_DONE,
                        0,
                        0,
                        "NO_CREDENTIALS",
                        "The credential an endpoint of the task (admin#g) was activated with expired at"
                                + " 2026-01-01T00:00:00Z: activate it again")));
        assertThat(status()).isEqualTo("INACTIVE");
        assertThat(jdbc.queryForMap("select nice_status, lease_owner, retry_after from task where id = ?", taskId))
                .containsEntry("NICE_STATUS", "NO_CREDENTIALS")
                .containsEntry("LEASE_OWNER", null)
                .containsEntry("RETRY_AFTER", null);
        assertThat(events("NO_CREDENTIALS"))
                .singleElement()
                .extracting(e -> (String) e.get("DESCRIPTION"))
                .asString()
                .contains("admin#g", "activate it again", "INACTIVE", "resumes by itself");
        // what moved is kept: the arrived file, the acknowledged ranges of the one cut short
        assertThat(jdbc.queryForList(
                        "select state from transfer_file where task_id = ? order by id", String.class, taskId))
                .containsExactly("SUCCEEDED", "PENDING", "PENDING");
        assertThat(jdbc.queryForObject("select acknowledged from transfer_file where id = ?", String.class, files[1]))
                .isEqualTo("0-30");
        assertThat(jdbc.queryForObject("select state from chunk where id = ?", String.class, chunk))
                .isEqualTo("DONE");
        assertThat(jdbc.queryForObject("select attempts from transfer_file where id = ?", Integer.class, files[1]))
                .as("no attempt spent")
                .isZero();

        // an activation without a usable credential (none stored) leaves it INACTIVE
        publisher.publishEvent(new EndpointActivatedEvent(endpoint, "admin"));
        // the owner activates the endpoint: a credential row (what activation stores, sealed)
        jdbc.update(
                "insert into endpoint_credential (id, endpoint_id, owner_name, method, subject, not_after,"
                        + " sealed_credential, created_time) values (?, ?, 'admin', 'delegate_proxy',"
                        + " '/O=Grid/CN=Admin', ?, 'fc1:none:sealed', ?)",
                UUID.randomUUID(),
                endpoint,
                Timestamp.from(Instant.now().plus(Duration.ofHours(12))),
                Timestamp.from(Instant.now()));
        publisher.publishEvent(new EndpointActivatedEvent(endpoint, "admin"));
        await(() -> !events("RESUMED").isEmpty(), "the RESUMED event");
        assertThat(events("RESUMED"))
                .singleElement()
                .extracting(e -> (String) e.get("DESCRIPTION"))
                .asString()
                .contains("admin#g", "activated again");
        assertThat(status()).isEqualTo("ACTIVE");
    }

    @Test
    void aDeactivationSuspendsAnActiveTaskAndTheDeadlineEndsItWhileInactive() throws Exception {
        publisher.publishEvent(new EndpointDeactivatedEvent(endpoint, "admin"));
        await(() -> status().equals("INACTIVE"), "INACTIVE");
        assertThat(events("NO_CREDENTIALS"))
                .singleElement()
                .extracting(e -> (String) e.get("DESCRIPTION"))
                .asString()
                .contains("admin#g", "was deactivated");
        assertThat(jdbc.queryForList(
                        "select state from transfer_file where task_id = ? order by id", String.class, taskId))
                .containsOnly("PENDING");

        // the owner moves the deadline into the past (the API's PUT /task does this update)
        jdbc.update(
                "update task set deadline = ? where id = ?",
                Timestamp.from(Instant.now().minusSeconds(1)),
                taskId);
        await(() -> status().equals("FAILED"), "FAILED");
        assertThat(jdbc.queryForMap("select fatal_error_code, fatal_error_description from task where id = ?", taskId))
                .containsEntry("FATAL_ERROR_CODE", "EXPIRED")
                .extractingByKey("FATAL_ERROR_DESCRIPTION")
                .asString()
                .contains("while it was INACTIVE");
    }
}
