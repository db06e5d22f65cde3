package org.ferry.api.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.Task;
import org.ferry.api.domain.TaskStatus;
import org.ferry.api.domain.TaskType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;

/**
 * The task list's plain SQL on a database made by Ferry's migrations: each filter of the Globus
 * {@code task_list} (owner, status, type, ids, label exact and LIKE with escapes, time ranges), the
 * order (asked columns, then newest first, then id), paging with its total (counted only when the
 * page does not tell it), and the further destinations of multicast tasks.
 */
@StoreTest
@Import(TaskListRows.class)
class TaskListRowsTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Autowired
    TaskStore store;

    @Autowired
    TaskListRows rows;

    UUID plain;
    UUID underscore;
    UUID percent;
    UUID unlabelled;
    UUID deletion;
    UUID multicast;
    UUID bobs;

    private static Endpoint endpoint(String owner, String name) {
        return new Endpoint(owner, name, "ftp://127.0.0.1:1", "");
    }

    private UUID transfer(String owner, String label, int minute, List<Endpoint> further) {
        return store.create(NewTask.transfer(
                UUID.randomUUID().toString(),
                owner,
                label,
                T0.plus(Duration.ofMinutes(minute)),
                T0.plus(Duration.ofDays(1)),
                endpoint(owner, "a"),
                endpoint(owner, "b"),
                NewTask.TransferOptions.none(),
                List.of(new NewTask.Item("/a", "/b", false)),
                further));
    }

    @BeforeEach
    void tasks() {
        plain = transfer("alice", "abc", 1, List.of());
        underscore = transfer("alice", "a_c", 2, List.of());
        percent = transfer("alice", "50% done", 3, List.of());
        unlabelled = transfer("alice", null, 4, List.of());
        deletion = store.create(NewTask.delete(
                UUID.randomUUID().toString(),
                "alice",
                "cleanup",
                T0.plus(Duration.ofMinutes(5)),
                T0.plus(Duration.ofDays(1)),
                endpoint("alice", "a"),
                false,
                false,
                List.of("/x")));
        multicast = transfer("alice", "fan", 6, List.of(endpoint("alice", "c"), endpoint("alice", "d")));
        bobs = transfer("bob", "abc", 7, List.of());
        store.succeed(plain, T0.plus(Duration.ofMinutes(10)));
        store.fail(underscore, "EXPIRED", "late", T0.plus(Duration.ofMinutes(20)));
    }

    private List<UUID> ids(TaskListQuery query) {
        return rows.page(query, 100, 0).tasks().stream().map(Task::getId).toList();
    }

    private static TaskListQuery alice() {
        return new TaskListQuery().ownedBy("alice");
    }

    @Test
    void aUserSeesOnlyTheirOwnTasksNewestFirst() {
        assertThat(ids(alice())).containsExactly(multicast, deletion, unlabelled, percent, underscore, plain);
        assertThat(ids(new TaskListQuery())).startsWith(bobs, multicast).contains(plain);
    }

    @Test
    void statusTypeAndIdFiltersAreAnded() {
        assertThat(ids(alice().statusIn(List.of(TaskStatus.SUCCEEDED, TaskStatus.FAILED))))
                .containsExactly(underscore, plain);
        assertThat(ids(alice().statusIn(List.of())).isEmpty()).isTrue();
        assertThat(ids(alice().typeIn(List.of(TaskType.DELETE)))).containsExactly(deletion);
        assertThat(ids(alice().idIn(List.of(plain, percent, bobs)))).containsExactly(percent, plain);
        assertThat(ids(alice().idIn(List.of(plain, percent)).statusIn(List.of(TaskStatus.ACTIVE))))
                .containsExactly(percent);
    }

    @Test
    void labelsMatchExactlyOrByEscapedPatterns() {
        assertThat(ids(alice().labelIs("abc"))).containsExactly(plain);
        // "a\_c": the underscore is literal, so "abc" does not match
        assertThat(ids(alice().labelLike("a\\_c"))).containsExactly(underscore);
        assertThat(ids(alice().labelLike("a_c"))).containsExactly(underscore, plain);
        assertThat(ids(alice().labelLike("%\\%%"))).containsExactly(percent);
        // not like: a task without a label is listed too
        assertThat(ids(alice().labelNotLike("a%"))).containsExactly(multicast, deletion, unlabelled, percent);
    }

    @Test
    void timeRangesIncludeBothEnds() {
        assertThat(ids(alice().between(
                                TaskListQuery.Column.REQUEST_TIME,
                                T0.plus(Duration.ofMinutes(2)),
                                T0.plus(Duration.ofMinutes(4)))))
                .containsExactly(unlabelled, percent, underscore);
        assertThat(ids(alice().between(TaskListQuery.Column.REQUEST_TIME, T0.plus(Duration.ofMinutes(6)), null)))
                .containsExactly(multicast);
        assertThat(ids(alice().between(TaskListQuery.Column.COMPLETION_TIME, null, T0.plus(Duration.ofMinutes(15)))))
                .containsExactly(plain);
    }

    @Test
    void askedOrdersComeFirstThenTheNewest() {
        assertThat(ids(alice().statusIn(List.of(TaskStatus.ACTIVE)).orderBy(TaskListQuery.Column.TYPE, false)))
                .containsExactly(deletion, multicast, unlabelled, percent);
        assertThat(ids(alice().labelLike("a%").orderBy(TaskListQuery.Column.LABEL, true)))
                .containsExactly(plain, underscore);
        assertThat(ids(alice().orderBy(TaskListQuery.Column.REQUEST_TIME, false)))
                .containsExactly(plain, underscore, percent, unlabelled, deletion, multicast);
    }

    @Test
    void pagesCarryTheTotal() {
        TaskListRows.TaskListPage first = rows.page(alice(), 4, 0);
        assertThat(first.tasks()).extracting(Task::getId).containsExactly(multicast, deletion, unlabelled, percent);
        assertThat(first.total()).isEqualTo(6);
        TaskListRows.TaskListPage second = rows.page(alice(), 4, 4);
        assertThat(second.tasks()).extracting(Task::getId).containsExactly(underscore, plain);
        assertThat(second.total()).isEqualTo(6);
        TaskListRows.TaskListPage full = rows.page(alice(), 6, 0);
        assertThat(full.tasks()).hasSize(6);
        assertThat(full.total()).isEqualTo(6);
        TaskListRows.TaskListPage beyond = rows.page(alice(), 4, 40);
        assertThat(beyond.tasks()).isEmpty();
        assertThat(beyond.total()).isEqualTo(6);
        assertThat(rows.page(alice().labelIs("nothing"), 4, 0).total()).isZero();
    }

    @Test
    void multicastTasksComeWithTheirFurtherDestinations() {
        TaskListRows.TaskListPage page = rows.page(alice(), 100, 0);
        assertThat(page.additionalDestinations()).containsOnlyKeys(multicast);
        assertThat(page.additionalDestinations().get(multicast))
                .extracting(NewTask.Destination::endpoint)
                .containsExactly("alice#c", "alice#d");
        Task read = page.tasks().get(0);
        assertThat(read.getLabel()).isEqualTo("fan");
        assertThat(read.getStatus()).isEqualTo(TaskStatus.ACTIVE);
        assertThat(read.getRequestTime()).isEqualTo(T0.plus(Duration.ofMinutes(6)));
        assertThat(read.getDestinationEndpoint()).isEqualTo("alice#b");
    }
}
