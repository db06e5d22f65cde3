package org.ferry.server.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.ferry.api.domain.TaskStatus;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The service's metrics, read from the database the scheduler writes, so that every ferry-server
 * of a cluster reports the same cluster-wide figures (aggregate them with {@code max}, not
 * {@code sum}); the database is read at most once per {@code ferry.metrics.refresh-seconds}
 * (default 15), however often Prometheus scrapes.
 *
 * <ul>
 *   <li>{@code ferry_tasks{status}}: tasks by status (gauge);
 *   <li>{@code ferry_transfer_bytes_total{source,destination}} and
 *       {@code ferry_transfer_files_total{source,destination}}: bytes and files moved by the
 *       tasks of each endpoint pair (counters; {@code rate()} of the bytes is the pair's
 *       throughput);
 *   <li>{@code ferry_faults_total{code}}: faults by code, from the error events (counter): each
 *       fault once, also when a task's FAILED ending repeats the fault that ended it; a source
 *       path skipped under {@code skip_source_errors} counts as {@code SKIPPED_ERRORS};
 *   <li>{@code ferry_retries_total}: transient faults after which a file or task was tried again
 *       (counter);
 *   <li>{@code ferry_queue_files} and {@code ferry_queue_chunks}: the queue's depth, as files of
 *       running tasks not yet moved and chunks out with movers (gauges).
 * </ul>
 */
@Component
public class TransferMetrics implements MeterBinder {

    private final JdbcTemplate jdbc;
    private final long refreshNanos;
    private final Set<String> pairsRegistered = ConcurrentHashMap.newKeySet();
    private final Set<String> codesRegistered = ConcurrentHashMap.newKeySet();
    private volatile Snapshot snapshot = Snapshot.EMPTY;
    private volatile long readAtNanos = Long.MIN_VALUE;
    private MeterRegistry registry;

    /**
     * @param jdbc the database
     * @param refreshSeconds least time between two reads of the database
     */
    public TransferMetrics(JdbcTemplate jdbc, @Value("${ferry.metrics.refresh-seconds:15}") long refreshSeconds) {
        this.jdbc = jdbc;
        this.refreshNanos = Duration.ofSeconds(refreshSeconds).toNanos();
    }

    /** What the database said at one read. */
    record Snapshot(
            Map<String, Long> tasksByStatus,
            Map<String, long[]> movedByPair,
            Map<String, Long> faultsByCode,
            long queuedFiles,
            long activeChunks,
            long retries) {
        static final Snapshot EMPTY = new Snapshot(Map.of(), Map.of(), Map.of(), 0, 0, 0);
    }

    @Override
    public void bindTo(MeterRegistry meters) {
        this.registry = meters;
        for (TaskStatus status : TaskStatus.values()) {
            Gauge.builder("ferry.tasks", this, m -> m.current().tasksByStatus().getOrDefault(status.name(), 0L))
                    .description("Tasks by status")
                    .tag("status", status.name())
                    .register(meters);
        }
        Gauge.builder("ferry.queue.files", this, m -> m.current().queuedFiles())
                .description("Files of running transfer tasks not yet moved (waiting or in a chunk)")
                .register(meters);
        Gauge.builder("ferry.queue.chunks", this, m -> m.current().activeChunks())
                .description("Chunks dispatched to movers and not yet done")
                .register(meters);
        FunctionCounter.builder("ferry.retries", this, m -> m.current().retries())
                .description("Transient faults after which a file or task was tried again")
                .register(meters);
        current(); // registers the pairs and codes there are
    }

    /** @return the snapshot, read again when it is older than the refresh interval */
    synchronized Snapshot current() {
        long now = System.nanoTime();
        if (readAtNanos != Long.MIN_VALUE && now - readAtNanos < refreshNanos) {
            return snapshot;
        }
        Map<String, Long> statuses = new HashMap<>();
        jdbc.query("select status, count(*) from task group by status", row -> {
            statuses.put(row.getString(1), row.getLong(2));
        });
        Map<String, long[]> pairs = new HashMap<>();
        jdbc.query(
                "select source_endpoint, destination_endpoint, sum(bytes_transferred), sum(files_transferred)"
                        + " from task where type = 'TRANSFER' group by source_endpoint, destination_endpoint",
                row -> {
                    pairs.put(row.getString(1) + "\n" + row.getString(2), new long[] {row.getLong(3), row.getLong(4)});
                });
        Map<String, Long> faults = new HashMap<>();
        jdbc.query("select code, count(*) from task_event where is_error = true group by code", row -> {
            faults.put(row.getString(1), row.getLong(2));
        });
        // A FAILED task's ending event carries its fatal code; when a fault event of that code
        // came before it (the mover's or the planner's), the ending tells the same fault again:
        // counted once. (The ending is written with the task's end, so the sum never decreases.)
        jdbc.query(
                "select t.fatal_error_code, count(*) from task t where t.status = 'FAILED' and (select count(*)"
                        + " from task_event e where e.task_id = t.id and e.is_error = true"
                        + " and e.code = t.fatal_error_code) > 1 group by t.fatal_error_code",
                row -> {
                    faults.merge(row.getString(1), -row.getLong(2), Long::sum);
                });
        // from the task rows' counters, not by counting file rows: cheap with a million files
        Long queued = jdbc.queryForObject(
                "select coalesce(sum(subtasks_total - subtasks_succeeded - subtasks_failed - subtasks_skipped_errors), 0)"
                        + " from task where status = 'ACTIVE' and type = 'TRANSFER' and plan_state = 'PLANNED'",
                Long.class);
        Long chunks = jdbc.queryForObject("select count(*) from chunk where state = 'ACTIVE'", Long.class);
        // every fault counts in faults; the permanent ones also as a failed or skipped subtask
        Long retries = jdbc.queryForObject(
                "select coalesce(sum(faults - subtasks_failed - subtasks_skipped_errors), 0) from task"
                        + " where type = 'TRANSFER' and faults > subtasks_failed + subtasks_skipped_errors",
                Long.class);
        snapshot = new Snapshot(
                statuses,
                pairs,
                faults,
                queued == null ? 0 : queued,
                chunks == null ? 0 : chunks,
                retries == null ? 0 : retries);
        readAtNanos = now;
        registerNew();
        return snapshot;
    }

    private void registerNew() {
        if (registry == null) {
            return;
        }
        for (String pair : snapshot.movedByPair().keySet()) {
            if (pairsRegistered.add(pair)) {
                String[] ends = pair.split("\n", 2);
                Tags tags = Tags.of("source", ends[0], "destination", ends[1]);
                FunctionCounter.builder("ferry.transfer.bytes", this, m -> moved(m, pair, 0))
                        .description("Bytes moved by the tasks of an endpoint pair")
                        .baseUnit("bytes")
                        .tags(tags)
                        .register(registry);
                FunctionCounter.builder("ferry.transfer.files", this, m -> moved(m, pair, 1))
                        .description("Files moved by the tasks of an endpoint pair")
                        .tags(tags)
                        .register(registry);
            }
        }
        for (String code : snapshot.faultsByCode().keySet()) {
            if (codesRegistered.add(code)) {
                FunctionCounter.builder(
                                "ferry.faults",
                                this,
                                m -> m.current().faultsByCode().getOrDefault(code, 0L))
                        .description("Fault events by code")
                        .tag("code", code)
                        .register(registry);
            }
        }
    }

    private static double moved(TransferMetrics metrics, String pair, int index) {
        long[] moved = metrics.current().movedByPair().get(pair);
        return moved == null ? 0 : moved[index];
    }
}
