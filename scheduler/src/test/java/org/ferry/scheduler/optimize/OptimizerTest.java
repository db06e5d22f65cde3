package org.ferry.scheduler.optimize;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.EndpointLimits;
import org.ferry.api.domain.OptimizerDecision;
import org.ferry.api.store.FileStore;
import org.ferry.api.store.LeasedTask;
import org.ferry.api.store.NewTask;
import org.ferry.api.store.OptimizerRows;
import org.ferry.api.store.TaskStore;
import org.ferry.scheduler.SchedulerConfiguration;
import org.ferry.scheduler.fixture.SchedulerFixture;
import org.ferry.scheduler.queue.embedded.InProcessWorkQueue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.test.autoconfigure.JdbcTest;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The optimizer on a real database made by Ferry's migrations: its intervals driven by the test
 * ({@link Optimizer#decide} with the time the test chooses, no sleeping), its decisions stored with
 * their inputs, its events on the pair's tasks, and the admins' limits applied at once.
 */
@JdbcTest(
        properties = {
            "spring.flyway.locations=classpath:db/migration,classpath:db/vendor/{vendor}",
            "spring.flyway.out-of-order=false",
            "ferry.transfer.worker-threads=2",
            "ferry.optimizer.interval=2s"
        })
@Import({
    SchedulerConfiguration.class,
    TaskStore.class,
    FileStore.class,
    OptimizerRows.class,
    InProcessWorkQueue.class,
    SchedulerFixture.Sessions.class
})
class OptimizerTest {

    private static final long MB = 1_000_000;

    @Autowired
    TaskStore tasks;

    @Autowired
    OptimizerProperties settings;

    @Autowired
    TransactionTemplate transactions;

    @Autowired
    InProcessWorkQueue queue;

    /** A fresh optimizer per test: its clock is the test's. */
    Optimizer optimizer;

    @BeforeEach
    void freshOptimizer() {
        optimizer = new Optimizer(settings, rows, tasks, transactions, queue);
    }

    @Autowired
    OptimizerRows rows;

    @Autowired
    JdbcTemplate jdbc;

    private Endpoint endpoint(String name) {
        // a unique display name: the tests share one database
        Endpoint endpoint = new Endpoint("admin", name + UUID.randomUUID(), "ftp://127.0.0.1:1", "");
        jdbc.update(
                "insert into endpoint (id, owner_name, canonical_name, display_name, url, username, password,"
                        + " created_time) values (?, 'admin', ?, ?, ?, '', '', current_timestamp)",
                endpoint.getId(),
                endpoint.getCanonicalName(),
                endpoint.getDisplayName(),
                endpoint.getUrl());
        return endpoint;
    }

    private LeasedTask task(Endpoint source, Endpoint destination) {
        UUID id = tasks.create(NewTask.transfer(
                UUID.randomUUID().toString(),
                "alice",
                null,
                Instant.now(),
                null,
                source,
                destination,
                NewTask.TransferOptions.none(),
                List.of(new NewTask.Item("/a", "/b", false))));
        Instant now = Instant.now();
        return tasks.renewLeases("test", now, now.plusSeconds(30)).stream()
                .filter(t -> t.id().equals(id))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void eachIntervalStoresADecisionWithItsInputsAndTellsThePairsTasks() {
        Endpoint a = endpoint("a");
        Endpoint b = endpoint("b");
        LeasedTask task = task(a, b);
        String pair = task.endpointPair();
        // the start: the fixed rules' 2 session pairs per chunk slot (2 worker threads)
        assertThat(optimizer.allowances().of(pair).concurrency()).isEqualTo(4);

        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        assertThat(optimizer.due(t0)).isFalse(); // starts the clock
        assertThat(optimizer.due(t0.plusMillis(1999))).isFalse();
        assertThat(optimizer.due(t0.plusSeconds(2))).isTrue();
        optimizer.meter().arrived(pair, 40 * MB, 4);
        List<OptimizerDecision> first = optimizer.decide(t0.plusSeconds(2), List.of(task));
        assertThat(first).hasSize(1);
        OptimizerDecision d = first.get(0);
        assertThat(d.throughputSample()).isEqualTo(20.0 * MB);
        assertThat(d.previousConcurrency()).isEqualTo(4);
        assertThat(d.concurrency()).isEqualTo(5);
        assertThat(d.successRate()).isEqualTo(100.0);
        assertThat(d.reason()).contains("First throughput");
        assertThat(optimizer.allowances().of(pair).concurrency()).isEqualTo(5);

        // 1 of 4 failed: 75 % < 97 %, back to 4
        optimizer.meter().arrived(pair, 60 * MB, 3);
        optimizer.meter().failed(pair);
        OptimizerDecision second =
                optimizer.decide(t0.plusSeconds(4), List.of(task)).get(0);
        assertThat(second.concurrency()).isEqualTo(4);
        assertThat(second.filesFailed()).isEqualTo(1);
        assertThat(second.successRate()).isEqualTo(75.0);

        assertThat(rows.evolution(a.getId(), b.getId(), null, 100))
                .extracting(OptimizerDecision::concurrency)
                .containsExactly(5, 4);
        assertThat(rows.current()).anySatisfy(c -> assertThat(c.reason()).contains("75.0 %"));
        List<String> events = jdbc.queryForList(
                "select description from task_event where task_id = ? and code = 'OPTIMIZER_DECISION'" + " order by id",
                String.class,
                task.id());
        assertThat(events).hasSize(2);
        assertThat(events.get(0)).contains("4 -> 5 session pairs");
        assertThat(events.get(1)).contains("5 -> 4 session pairs").contains("below 97 %");
    }

    @Test
    void anAdminsLimitsBindAtOnceAndAreNeverExceeded() {
        Endpoint a = endpoint("a");
        Endpoint b = endpoint("b");
        LeasedTask task = task(a, b);
        String pair = task.endpointPair();
        rows.saveLimits(b.getId(), new EndpointLimits(null, 3, 2));
        assertThat(optimizer.allowances().of(pair)).isEqualTo(new Allowance(3, 2));

        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        assertThat(optimizer.due(t0)).isFalse();
        double throughput = 10 * MB;
        for (int i = 1; i <= 10; i++) {
            // throughput rises with every session pair: the optimizer wants more, the limit holds it
            throughput *= 1.5;
            optimizer.meter().arrived(pair, (long) (throughput * 2), 10);
            OptimizerDecision d =
                    optimizer.decide(t0.plusSeconds(2L * i), List.of(task)).get(0);
            assertThat(d.concurrency()).isLessThanOrEqualTo(3);
            assertThat(d.maxConcurrency()).isEqualTo(3);
            assertThat(d.parallelism()).isLessThanOrEqualTo(2);
        }
        // a minimum above the other endpoint's maximum: the maximum wins
        rows.saveLimits(a.getId(), new EndpointLimits(5, null, null));
        assertThat(optimizer.allowances().of(pair).concurrency()).isEqualTo(3);
    }

    @Test
    void decisionsPastTheRetentionAreDeletedOnceAnHour() {
        Endpoint source = endpoint("a");
        Endpoint destination = endpoint("b");
        LeasedTask task = task(source, destination);
        UUID a = source.getId();
        UUID b = destination.getId();
        Instant t0 = Instant.parse("2026-03-01T00:00:00Z");
        rows.insert(new OptimizerDecision(
                a, b, t0.minus(settings.retention()).minusSeconds(1), 0, 0, 100, 0, 0, 4, 4, 16, 2, 32, "old"));
        rows.insert(new OptimizerDecision(a, b, t0.minusSeconds(60), 0, 0, 100, 0, 0, 4, 4, 16, 2, 32, "recent"));

        optimizer.decide(t0, List.of(task));

        assertThat(rows.evolution(a, b, null, 100))
                .extracting(OptimizerDecision::reason)
                .doesNotContain("old")
                .contains("recent");
        // within the hour: no second delete, an old row stays until the next one
        rows.insert(new OptimizerDecision(
                a, b, t0.minus(settings.retention()).minusSeconds(5), 0, 0, 100, 0, 0, 4, 4, 16, 2, 32, "older"));
        optimizer.decide(t0.plusSeconds(2), List.of(task));
        assertThat(rows.evolution(a, b, null, 100))
                .extracting(OptimizerDecision::reason)
                .contains("older");
        optimizer.decide(t0.plusSeconds(3601), List.of(task));
        assertThat(rows.evolution(a, b, null, 100))
                .extracting(OptimizerDecision::reason)
                .doesNotContain("older");
    }
}
