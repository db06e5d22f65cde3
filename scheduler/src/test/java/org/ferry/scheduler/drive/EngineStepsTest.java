package org.ferry.scheduler.drive;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.store.FileStore;
import org.ferry.api.store.LeasedTask;
import org.ferry.api.store.NewTask;
import org.ferry.api.store.PlannedFile;
import org.ferry.api.store.TaskStore;
import org.ferry.mover.runner.FileTransfer;
import org.ferry.scheduler.SchedulerConfiguration;
import org.ferry.scheduler.fixture.SchedulerFixture;
import org.ferry.scheduler.queue.embedded.InProcessWorkQueue;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.test.autoconfigure.JdbcTest;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The engine's {@code deadlines} and {@code lost-chunks} steps on a real database made by Ferry's
 * migrations, with the task store and the embedded work queue (not started: no mover runs).
 */
@JdbcTest(
        properties = {
            "spring.flyway.locations=classpath:db/migration,classpath:db/vendor/{vendor}",
            "spring.flyway.out-of-order=false",
            "ferry.transfer.chunk-timeout=20s"
        })
@Import({
    SchedulerConfiguration.class,
    TaskStore.class,
    FileStore.class,
    TaskEnding.class,
    TaskJobs.class,
    Wakeup.class,
    InProcessWorkQueue.class,
    DeadlineStep.class,
    LostChunkStep.class,
    SchedulerFixture.Sessions.class
})
class EngineStepsTest {

    @Autowired
    TaskStore tasks;

    @Autowired
    FileStore files;

    @Autowired
    DeadlineStep deadlines;

    @Autowired
    LostChunkStep lostChunks;

    @Autowired
    JdbcTemplate jdbc;

    private UUID task(Instant deadline) {
        return tasks.create(NewTask.transfer(
                UUID.randomUUID().toString(),
                "alice",
                null,
                Instant.now(),
                deadline,
                new Endpoint("alice", "a", "ftp://127.0.0.1:1", ""),
                new Endpoint("alice", "b", "ftp://127.0.0.1:1", ""),
                NewTask.TransferOptions.none(),
                List.of(new NewTask.Item("/a", "/b", false))));
    }

    private Tick tick(Instant now, String instance) {
        List<LeasedTask> leased = tasks.renewLeases(instance, now, now.plusSeconds(30));
        return new Tick(now, leased, false, instance, true);
    }

    private String status(UUID taskId) {
        return jdbc.queryForObject(
                "select status || ':' || coalesce(fatal_error_code, '') from task where id = ?", String.class, taskId);
    }

    @Test
    void tasksPastTheirDeadlineFailExpiredActiveOrInactive() {
        Instant now = Instant.now();
        UUID late = task(now.minusSeconds(1));
        UUID inactiveLate = task(now.minusSeconds(1));
        UUID onTime = task(now.plus(Duration.ofHours(1)));
        tasks.suspend(inactiveLate, "no credential", now);
        deadlines.run(tick(now, "a"));
        assertThat(status(late)).isEqualTo("FAILED:EXPIRED");
        assertThat(status(inactiveLate)).isEqualTo("FAILED:EXPIRED");
        assertThat(status(onTime)).isEqualTo("ACTIVE:");
    }

    @Test
    void aSilentChunkOfThisInstanceIsLostAndItsFilesResumeFromTheirRanges() {
        Instant dispatched = Instant.now().minusSeconds(60);
        UUID mine = task(Instant.now().plus(Duration.ofHours(1)));
        UUID theirs = task(Instant.now().plus(Duration.ofHours(1)));
        long[] chunks = new long[2];
        int i = 0;
        for (UUID taskId : List.of(mine, theirs)) {
            files.insert(taskId, List.of(PlannedFile.toMove("/a", "/b", 100, null)));
            tasks.recordPlan(taskId, 1, 0, 0, 0);
            List<FileTransfer> ready = files.ready(taskId, dispatched, 10);
            chunks[i++] = files.createChunk(taskId, "alice", "a>b", ready, dispatched);
        }
        jdbc.update("update transfer_file set acknowledged = '0-40', bytes_acknowledged = 40 where task_id = ?", mine);
        tasks.renewLeases("b", Instant.now(), Instant.now().plusSeconds(30)); // b leases both first
        jdbc.update("update task set lease_owner = 'a' where id = ?", mine);

        lostChunks.run(new Tick(Instant.now(), List.of(), false, "a", true));

        assertThat(jdbc.queryForObject("select state from chunk where id = ?", String.class, chunks[0]))
                .isEqualTo("LOST");
        assertThat(jdbc.queryForObject("select state from chunk where id = ?", String.class, chunks[1]))
                .as("another instance's chunk is that instance's to judge")
                .isEqualTo("ACTIVE");
        assertThat(jdbc.queryForMap("select state, acknowledged from transfer_file where task_id = ?", mine))
                .containsEntry("STATE", "PENDING")
                .containsEntry("ACKNOWLEDGED", "0-40");
        assertThat(jdbc.queryForList("select code from task_event where task_id = ?", String.class, mine))
                .contains("CONNECTION_BROKEN");
    }
}
