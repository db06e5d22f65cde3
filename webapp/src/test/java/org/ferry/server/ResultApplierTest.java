package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.ferry.mover.queue.MessageCodec;
import org.ferry.mover.queue.ResultMessage;
import org.ferry.scheduler.drive.ResultApplier;
import org.ferry.scheduler.optimize.Optimizer;
import org.ferry.scheduler.optimize.PairSample;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Mover results are applied idempotently (at-least-once delivery): the same result twice, a late
 * result of a chunk that was taken as lost, or a fault older than one applied before change
 * nothing. Real H2 database with the service's schema; rows written directly, results applied as
 * the work queue hands them over.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
class ResultApplierTest {

    private static final Path HOME = TestHomes.create("ferry-applier");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("ferry.home", HOME::toString);
        registry.add("ferry.transfer.chunk-timeout", () -> "1h"); // nothing taken as lost meanwhile
        // no interval ends while a test runs: the optimizer's meter is the test's to drain
        registry.add("ferry.optimizer.interval", () -> "1h");
    }

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    ResultApplier applier;

    @Autowired
    Optimizer optimizer;

    UUID taskId;
    long chunk;
    long staleChunk;
    long[] files = new long[3];

    @BeforeEach
    void rows() {
        UUID endpoint = UUID.randomUUID();
        jdbc.update(
                "insert into endpoint (id, owner_name, canonical_name, display_name, url, username,"
                        + " created_time) values (?, 'admin', ?, 'e', 'ftp://127.0.0.1:1', 'anonymous', ?)",
                endpoint,
                "admin#" + endpoint,
                Timestamp.from(Instant.now()));
        taskId = UUID.randomUUID();
        jdbc.update(
                "insert into task (id, submission_id, owner_name, type, status, nice_status, request_time,"
                        + " source_endpoint_id, source_endpoint, destination_endpoint_id, destination_endpoint,"
                        + " verify_checksum, files, directories, files_transferred, files_skipped, bytes_transferred,"
                        + " faults, subtasks_total, subtasks_succeeded, subtasks_failed, plan_state, retry_after)"
                        + " values (?, ?, 'admin', 'TRANSFER', 'ACTIVE', 'OK', ?, ?, 'e', ?, 'e', false, 3, 0, 0, 0,"
                        + " 0, 0, 3, 0, 0, 'PLANNED', ?)",
                taskId,
                UUID.randomUUID().toString(),
                Timestamp.from(Instant.now()),
                endpoint,
                endpoint,
                // backed off for an hour: the scheduler running beside the test dispatches nothing of it
                Timestamp.from(Instant.now().plusSeconds(3600)));
        chunk = chunk();
        staleChunk = chunk();
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

    private long chunk() {
        jdbc.update(
                "insert into chunk (task_id, owner_name, endpoint_pair, state, files, size_bytes, bytes_in_flight,"
                        + " dispatch_time, heartbeat_time) values (?, 'admin', 'p', 'ACTIVE', 3, 300, 0, ?, ?)",
                taskId,
                Timestamp.from(Instant.now()),
                Timestamp.from(Instant.now()));
        return jdbc.queryForObject("select max(id) from chunk where task_id = ?", Long.class, taskId);
    }

    private ResultMessage result(
            ResultMessage.Type type, long chunkId, long fileId, long bytes, int attempt, boolean retry, String ranges) {
        return new ResultMessage(
                MessageCodec.VERSION,
                type,
                taskId,
                chunkId,
                fileId,
                bytes,
                attempt,
                retry,
                type == ResultMessage.Type.FILE_FAULT ? "CONNECTION_BROKEN" : null,
                false,
                false,
                type == ResultMessage.Type.FILE_FAULT ? "Moving /s: connection reset" : null,
                ranges,
                type == ResultMessage.Type.FILE_ARRIVED ? "MD5:0123456789abcdef0123456789abcdef" : null,
                "test",
                System.currentTimeMillis(),
                null);
    }

    private long count(String sql) {
        return jdbc.queryForObject(sql, Long.class, taskId);
    }

    @Test
    void everyResultTwiceChangesNothingTheSecondTime() throws Exception {
        ResultMessage arrived = result(ResultMessage.Type.FILE_ARRIVED, chunk, files[0], 100, 0, false, null);
        ResultMessage marker = result(ResultMessage.Type.MARKER, chunk, files[1], 0, 0, false, "0-40");
        ResultMessage fault = result(ResultMessage.Type.FILE_FAULT, chunk, files[1], 0, 1, true, "0-50");
        applier.apply(List.of(arrived, marker, fault));
        applier.apply(List.of(arrived, marker, fault)); // delivered again
        assertThat(count("select files_transferred from task where id = ?")).isEqualTo(1);
        assertThat(count("select bytes_transferred from task where id = ?")).isEqualTo(100);
        assertThat(count("select faults from task where id = ?")).isEqualTo(1);
        assertThat(jdbc.queryForObject("select checksum from transfer_file where id = ?", String.class, files[0]))
                .as("the verified checksum is kept")
                .isEqualTo("MD5:0123456789abcdef0123456789abcdef");
        assertThat(jdbc.queryForObject("select acknowledged from transfer_file where id = ?", String.class, files[1]))
                .isEqualTo("0-50");
        // an older marker arriving late does not shrink the acknowledged ranges
        applier.apply(List.of(marker));
        assertThat(jdbc.queryForObject(
                        "select bytes_acknowledged from transfer_file where id = ?", Long.class, files[1]))
                .isEqualTo(50);
    }

    /**
     * A login a server refused as busy (421) within a chunk that goes on is a transient fault of the
     * endpoint pair for the optimizer, as a file's retried fault is, and fails nothing.
     */
    @Test
    void aRefusedLoginCountsForThePairAndFailsNothing() throws Exception {
        optimizer.meter().drain(1); // what other tests left
        ResultMessage refused = new ResultMessage(
                MessageCodec.VERSION,
                ResultMessage.Type.SESSION_REFUSED,
                taskId,
                chunk,
                0,
                0,
                0,
                false,
                "ENDPOINT_ERROR",
                false,
                false,
                "Logging in: connect: 421 Service busy: Connection limit exceeded.",
                null,
                null,
                "test",
                System.currentTimeMillis(),
                null);
        applier.apply(List.of(
                refused,
                result(ResultMessage.Type.FILE_FAULT, chunk, files[1], 0, 1, true, null),
                result(ResultMessage.Type.FILE_ARRIVED, chunk, files[0], 100, 0, false, null)));
        PairSample sample = optimizer.meter().drain(1).get("p");
        assertThat(sample).isNotNull();
        assertThat(sample.succeeded()).isEqualTo(1);
        assertThat(sample.failed())
                .as("the refused login and the retried fault")
                .isEqualTo(2);
        assertThat(count("select count(*) from transfer_file where task_id = ? and state = 'ACTIVE'"))
                .as("the retried file and the untouched one stay in the chunk")
                .isEqualTo(2);
        assertThat(count("select subtasks_failed from task where id = ?")).isZero();
        assertThat(count("select count(*) from chunk where task_id = ? and state = 'ACTIVE'"))
                .isEqualTo(2);
        // the same message read back from the wire
        MessageCodec codec = new MessageCodec();
        assertThat(codec.result(codec.write(refused))).isEqualTo(refused);
    }

    @Test
    void aLateResultOfALostChunkIsIgnoredAndTheChunksEndPutsFilesBack() throws Exception {
        // the file's chunk is `chunk`; a mover thought lost reports for `staleChunk`
        applier.apply(List.of(result(ResultMessage.Type.FILE_ARRIVED, staleChunk, files[2], 100, 0, false, null)));
        assertThat(jdbc.queryForObject("select state from transfer_file where id = ?", String.class, files[2]))
                .isEqualTo("ACTIVE");
        ResultMessage done = result(ResultMessage.Type.CHUNK_DONE, chunk, 0, 0, 0, false, null);
        applier.apply(List.of(result(ResultMessage.Type.MARKER, chunk, files[2], 0, 0, false, "0-30"), done));
        applier.apply(List.of(done));
        assertThat(jdbc.queryForObject("select state from transfer_file where id = ?", String.class, files[2]))
                .isEqualTo("PENDING");
        assertThat(jdbc.queryForObject("select acknowledged from transfer_file where id = ?", String.class, files[2]))
                .as("kept for the resume")
                .isEqualTo("0-30");
        assertThat(count("select files_transferred from task where id = ?")).isZero();
        assertThat(count("select count(*) from chunk where task_id = ? and state = 'DONE'"))
                .isEqualTo(1);
    }
}
