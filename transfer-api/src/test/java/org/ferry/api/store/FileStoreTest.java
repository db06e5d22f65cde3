package org.ferry.api.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.ferry.mover.protocol.ByteRange;
import org.ferry.mover.runner.FileTransfer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The file rows and chunks on a real database made by Ferry's migrations: every mover's result
 * is applied once (twice, late, or from a lost chunk changes nothing), a lost chunk gives its files
 * back with their acknowledged ranges, and a file that ended stays ended.
 */
@StoreTest
class FileStoreTest {

    @Autowired
    TaskStore tasks;

    @Autowired
    FileStore files;

    @Autowired
    JdbcTemplate jdbc;

    UUID task;
    Instant now = Instant.now();

    @BeforeEach
    void plannedTaskOfTwoFiles() {
        task = tasks.create(TaskStoreTest.transfer("alice"));
        files.insert(
                task,
                List.of(
                        PlannedFile.toMove("/a/1", "/b/1", 100, null),
                        PlannedFile.toMove("/a/2", "/b/2", 200, null),
                        PlannedFile.skipped("/a/3", "/b/3", "PERMISSION_DENIED", "unreadable")));
        tasks.recordPlan(task, 3, 1, 0, 1);
    }

    private long dispatch() {
        List<FileTransfer> ready = files.ready(task, now, 10);
        assertThat(ready).extracting(FileTransfer::sourcePath).containsExactly("/a/1", "/a/2");
        return files.createChunk(task, "alice", "a>b", ready, now);
    }

    private String state(String sourcePath) {
        return jdbc.queryForObject(
                "select state from transfer_file where task_id = ? and source_path = ?",
                String.class,
                task,
                sourcePath);
    }

    private long id(String sourcePath) {
        return jdbc.queryForObject(
                "select id from transfer_file where task_id = ? and source_path = ?", Long.class, task, sourcePath);
    }

    @Test
    void openFilesAreAskedOfManyTasksAtOnce() {
        UUID done = tasks.create(TaskStoreTest.transfer("alice"));
        files.insert(done, List.of(PlannedFile.skipped("/c/1", "/d/1", "PERMISSION_DENIED", "unreadable")));
        UUID empty = tasks.create(TaskStoreTest.transfer("alice"));
        assertThat(files.withOpenFiles(List.of(task, done, empty))).containsExactly(task);
        long chunk = dispatch();
        assertThat(files.withOpenFiles(List.of(task)))
                .as("ACTIVE files are open")
                .containsExactly(task);
        files.arrived(
                List.of(
                        new FileArrival(id("/a/1"), chunk, task, 100, null),
                        new FileArrival(id("/a/2"), chunk, task, 200, null)),
                now);
        assertThat(files.withOpenFiles(List.of(task, done, empty))).isEmpty();
        assertThat(files.withOpenFiles(List.of())).isEmpty();
    }

    @Test
    void anArrivalAppliedTwiceCountsOnce() {
        long chunk = dispatch();
        FileArrival arrival = new FileArrival(id("/a/1"), chunk, task, 100, null);
        assertThat(files.arrived(List.of(arrival), now)).containsExactly(true);
        assertThat(files.arrived(List.of(arrival), now)).containsExactly(false);
        assertThat(state("/a/1")).isEqualTo("SUCCEEDED");
        assertThat(files.endChunk(chunk, ChunkTransition.FINISH, null)).isEqualTo(task);
        assertThat(files.endChunk(chunk, ChunkTransition.FINISH, null))
                .as("ended before")
                .isNull();
        assertThat(state("/a/2")).as("given back without a result").isEqualTo("PENDING");
        assertThat(files.hasOpenFiles(task)).isTrue();
    }

    @Test
    void aLostChunkGivesItsFilesBackWithTheirRangesAndItsLateResultsChangeNothing() {
        long chunk = dispatch();
        files.markers(List.of(new FileMarker(id("/a/2"), chunk, "0-150", 150)));
        assertThat(files.endChunk(chunk, ChunkTransition.LOSE, null)).isEqualTo(task);
        assertThat(jdbc.queryForMap("select state, acknowledged, chunk_id from transfer_file where id = ?", id("/a/2")))
                .containsEntry("STATE", "PENDING")
                .containsEntry("ACKNOWLEDGED", "0-150")
                .containsEntry("CHUNK_ID", null);
        assertThat(files.arrived(List.of(new FileArrival(id("/a/2"), chunk, task, 200, null)), now))
                .as("the lost mover's late arrival")
                .containsExactly(false);
        assertThat(files.fault(
                        new FileFault(id("/a/1"), chunk, 1, "TIMEOUT", "late", null, 0),
                        FileTransition.GIVE_BACK,
                        now,
                        now))
                .isFalse();
        // offered again in a new chunk, the file resumes from its ranges
        List<FileTransfer> again = files.ready(task, now, 10);
        assertThat(again)
                .filteredOn(f -> f.sourcePath().equals("/a/2"))
                .extracting(FileTransfer::acknowledged)
                .containsExactly(List.of(new ByteRange(0, 150)));
    }

    @Test
    void anEndedChunkGivesBackItsOwnFilesOnlyNotThoseOfTheTasksOtherChunks() {
        List<FileTransfer> ready = files.ready(task, now, 10);
        long first = files.createChunk(task, "alice", "a>b", ready.subList(0, 1), now);
        long second = files.createChunk(task, "alice", "a>b", ready.subList(1, 2), now);
        assertThat(files.activeFiles(first)).containsExactly(id("/a/1"));
        assertThat(files.activeFiles(second)).containsExactly(id("/a/2"));
        assertThat(files.endChunk(first, ChunkTransition.LOSE, null)).isEqualTo(task);
        assertThat(state("/a/1")).isEqualTo("PENDING");
        assertThat(state("/a/2")).as("the other chunk's file").isEqualTo("ACTIVE");
        assertThat(files.activeFiles(first)).isEmpty();
        assertThat(files.activeFiles(second)).containsExactly(id("/a/2"));
    }

    @Test
    void aFaultOfAnEarlierAttemptIsIgnoredAndAFailedFileStaysFailed() {
        long chunk = dispatch();
        long file = id("/a/1");
        assertThat(files.fault(
                        new FileFault(file, chunk, 2, "TIMEOUT", "second attempt", null, 0),
                        FileTransition.RETRY_IN_CHUNK,
                        null,
                        now))
                .isTrue();
        assertThat(files.fault(
                        new FileFault(file, chunk, 1, "TIMEOUT", "first attempt, late", null, 0),
                        FileTransition.RETRY_IN_CHUNK,
                        null,
                        now))
                .isFalse();
        assertThat(files.fault(
                        new FileFault(file, chunk, 3, "FILE_NOT_FOUND", "gone", null, 0),
                        FileTransition.FAIL,
                        null,
                        now))
                .isTrue();
        assertThat(state("/a/1")).isEqualTo("FAILED");
        assertThat(files.arrived(List.of(new FileArrival(file, chunk, task, 100, null)), now))
                .containsExactly(false);
        assertThat(files.firstFailure(task)).containsExactly("FILE_NOT_FOUND", "gone");
        files.endChunk(chunk, ChunkTransition.FINISH, null);
        assertThat(state("/a/1")).isEqualTo("FAILED");
    }

    @Test
    void aFileTakenByAnotherInstanceIsNotDispatchedTwice() {
        List<FileTransfer> ready = files.ready(task, now, 10);
        files.createChunk(task, "alice", "a>b", ready, now);
        assertThatThrownBy(() -> files.createChunk(task, "alice", "a>b", ready, now))
                .isInstanceOf(IllegalStateException.class);
    }
}
