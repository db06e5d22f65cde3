package org.ferry.api.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.EventCode;
import org.ferry.api.domain.TaskType;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The task store on a real database made by Ferry's migrations: a status changes only as the
 * transition table says, the first end wins, events stop at the end, and a lease is held by one
 * instance at a time.
 */
@StoreTest
class TaskStoreTest {

    @Autowired
    TaskStore store;

    @Autowired
    JdbcTemplate jdbc;

    static NewTask transfer(String owner) {
        return NewTask.transfer(
                UUID.randomUUID().toString(),
                owner,
                "label",
                Instant.now(),
                Instant.now().plus(Duration.ofHours(1)),
                new Endpoint(owner, "a", "ftp://127.0.0.1:1", ""),
                new Endpoint(owner, "b", "ftp://127.0.0.1:1", ""),
                new NewTask.TransferOptions(
                        null, false, false, false, false, false, null, true, true, true, false, null, false),
                List.of(new NewTask.Item("/a", "/b", true)));
    }

    private String status(UUID taskId) {
        return jdbc.queryForObject("select status from task where id = ?", String.class, taskId);
    }

    private List<String> events(UUID taskId) {
        return jdbc.queryForList("select code from task_event where task_id = ? order by id", String.class, taskId);
    }

    @Test
    void aNewTaskIsActiveQueuedAndUnplannedWithItsItems() {
        UUID task = store.create(transfer("alice"));
        assertThat(jdbc.queryForMap("select status, nice_status, plan_state, type from task where id = ?", task))
                .containsValues("ACTIVE", "Queued", "NEW", "TRANSFER");
        assertThat(jdbc.queryForObject("select count(*) from transfer_item where task_id = ?", Integer.class, task))
                .isOne();
    }

    @Test
    void anEndedTaskRefusesEveryTransition() {
        UUID task = store.create(transfer("alice"));
        Instant now = Instant.now();
        assertThat(store.succeed(task, now)).isTrue();
        assertThat(store.suspend(task, "no credential", now)).isFalse();
        assertThat(store.resume(task, "activated", now)).isFalse();
        assertThat(store.fail(task, "EXPIRED", "late", now)).isFalse();
        assertThat(store.cancel(task, "cancelled", null, now)).isFalse();
        assertThat(store.updateLabelAndDeadline(task, "other", now)).isFalse();
        assertThat(store.eventIfActive(task, EventCode.PROGRESS, "progress", null))
                .isFalse();
        assertThat(status(task)).isEqualTo("SUCCEEDED");
        assertThat(events(task)).containsExactly("SUCCEEDED");
    }

    @Test
    void theFirstEndWins() {
        UUID task = store.create(transfer("alice"));
        Instant now = Instant.now();
        assertThat(store.cancel(task, "The task was cancelled by an administrator", "admin", now))
                .isTrue();
        assertThat(store.fail(task, "EXPIRED", "The deadline passed", now)).isFalse();
        assertThat(jdbc.queryForMap("select status, fatal_error_code, canceled_by_admin from task where id = ?", task))
                .containsValues("FAILED", "CANCELED", true);
        assertThat(events(task)).containsExactly("CANCELED");
    }

    @Test
    void anInactiveTaskNeverSucceedsAndResumesQueued() {
        UUID task = store.create(transfer("alice"));
        Instant now = Instant.now();
        assertThat(store.suspend(task, "Endpoint alice#a has no credential", now))
                .isTrue();
        assertThat(store.suspend(task, "again", now)).as("already INACTIVE").isFalse();
        assertThat(store.succeed(task, now)).isFalse();
        assertThat(status(task)).isEqualTo("INACTIVE");
        assertThat(store.resume(task, "activated", now)).isTrue();
        assertThat(jdbc.queryForMap("select status, nice_status from task where id = ?", task))
                .containsValues("ACTIVE", "Queued");
        assertThat(events(task)).containsExactly("NO_CREDENTIALS", "RESUMED");
        // a deadline ends an INACTIVE task too
        store.suspend(task, "again", now);
        assertThat(store.fail(task, "EXPIRED", "The deadline passed while it was INACTIVE", now))
                .isTrue();
    }

    @Test
    void aLeaseIsHeldByOneInstanceAtATime() {
        UUID task = store.create(transfer("alice"));
        Instant now = Instant.now();
        List<LeasedTask> a = store.renewLeases("a", now, now.plusSeconds(30));
        assertThat(a).extracting(LeasedTask::id).contains(task);
        assertThat(store.renewLeases("b", now.plusSeconds(1), now.plusSeconds(31)))
                .extracting(LeasedTask::id)
                .doesNotContain(task);
        assertThat(store.renewLeases("a", now.plusSeconds(2), now.plusSeconds(32)))
                .extracting(LeasedTask::id)
                .as("renewed by its holder")
                .contains(task);
        // a stops renewing: b takes the task when the lease runs out, and a has lost it
        assertThat(store.renewLeases("b", now.plusSeconds(33), now.plusSeconds(63)))
                .extracting(LeasedTask::id)
                .contains(task);
        assertThat(store.renewLeases("a", now.plusSeconds(34), now.plusSeconds(64)))
                .extracting(LeasedTask::id)
                .doesNotContain(task);
    }

    @Test
    void readingTheLeasesRenewsNoneAndLeavesOutThoseThatRanOut() {
        UUID task = store.create(transfer("alice"));
        Instant now = Instant.now();
        store.renewLeases("a", now, now.plusSeconds(30));
        assertThat(store.leasedTasks("a", now.plusSeconds(1)))
                .extracting(LeasedTask::id)
                .contains(task);
        assertThat(store.leasedTasks("b", now.plusSeconds(1)))
                .extracting(LeasedTask::id)
                .doesNotContain(task);
        assertThat(store.leasedTasks("a", now.plusSeconds(31)))
                .extracting(LeasedTask::id)
                .as("the lease ran out (not renewed by reading it), although no other instance took it")
                .doesNotContain(task);
        assertThat(jdbc.queryForObject("select lease_owner from task where id = ?", String.class, task))
                .isEqualTo("a");
    }

    @Test
    void onlyTasksAnotherInstanceDrivesAreLeasedElsewhere() {
        UUID driven = store.create(transfer("alice"));
        UUID ended = store.create(transfer("alice"));
        UUID mine = store.create(transfer("alice"));
        Instant now = Instant.now();
        store.renewLeases("b", now, now.plusSeconds(30)); // b drives all three
        store.succeed(ended, now); // ...until one ends: no lease any more
        jdbc.update("update task set lease_owner = 'a' where id = ?", mine);
        assertThat(store.leasedElsewhere("a", List.of(driven, ended, mine))).containsExactly(driven);
        assertThat(store.leasedElsewhere("a", List.of())).isEmpty();
    }

    @Test
    void aDeleteIsCountedOnlyByTheInstanceThatDrivesIt() {
        UUID task = store.create(NewTask.delete(
                UUID.randomUUID().toString(),
                "alice",
                null,
                Instant.now(),
                Instant.now().plus(Duration.ofHours(1)),
                new Endpoint("alice", "a", "ftp://127.0.0.1:1", ""),
                true,
                false,
                List.of("/tree")));
        Instant now = Instant.now();
        assertThat(store.renewLeases("a", now, now.plusSeconds(30)))
                .extracting(LeasedTask::type)
                .contains(TaskType.DELETE);
        assertThat(store.countDeleted(task, "a", 2, 0)).isTrue();
        assertThat(store.countDeleted(task, "a", 0, 1)).isTrue();
        assertThat(store.countDeleted(task, "b", 5, 0))
                .as("b does not hold the lease")
                .isFalse();
        assertThat(store.drives(task, "a")).isTrue();
        assertThat(store.succeed(task, now)).isTrue();
        assertThat(store.countDeleted(task, "a", 1, 0)).as("ended").isFalse();
        assertThat(jdbc.queryForObject(
                        "select details from task_event where task_id = ? and code = 'SUCCEEDED'", String.class, task))
                .isEqualTo("{\"files_deleted\":2,\"directories_deleted\":1}");
    }
}
