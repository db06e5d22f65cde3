package org.ferry.scheduler.optimize;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.ferry.api.domain.EndpointLimits;
import org.ferry.api.domain.EventCode;
import org.ferry.api.domain.OptimizerDecision;
import org.ferry.api.store.LeasedTask;
import org.ferry.api.store.OptimizerRows;
import org.ferry.api.store.TaskStore;
import org.ferry.scheduler.queue.WorkQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The optimizer per (source, destination) endpoint pair (docs/optimizer.md): holds each pair's
 * session pairs (concurrency, across all tasks and users) and moving average of throughput; every
 * {@code ferry.optimizer.interval} ({@link #decide}, called by the engine's optimizer step, or by a
 * test with the time it chooses) it applies the {@link OptimizerRule} to what the {@link PairMeter}
 * counted, within the endpoints' limits, stores the decision with its inputs, writes an
 * {@code OPTIMIZER_DECISION} event on the pair's active tasks when the value changed, and tells
 * its listeners. The start of a pair never seen is the fixed rules' concurrency (2) per chunk the
 * work queue moves at once, or its last stored decision.
 */
@Component
public class Optimizer {

    /** The fixed rules' concurrency per chunk (ARCHITECTURE.md "Tuning"). */
    public static final int FIXED_RULE_CONCURRENCY = 2;

    private static final Logger log = LoggerFactory.getLogger(Optimizer.class);

    /** How often the decisions past the retention are deleted. */
    private static final Duration PRUNE_EVERY = Duration.ofHours(1);

    private final OptimizerProperties settings;
    private final OptimizerRule rule;
    private final PairMeter meter = new PairMeter();
    private final OptimizerRows rows;
    private final TaskStore tasks;
    private final TransactionTemplate transactions;
    private final WorkQueue queue;
    private final Map<String, PairState> states = new ConcurrentHashMap<>();
    private final Map<String, Integer> parallelism = new ConcurrentHashMap<>();
    private final List<DecisionListener> listeners = new CopyOnWriteArrayList<>();
    private volatile Instant lastDecision;
    private volatile Instant lastPrune;

    /**
     * @param settings the interval, defaults and rule settings
     * @param rows decisions and limits
     * @param tasks writes the decision events
     * @param transactions transactions
     * @param queue its capacity sets a new pair's start
     */
    public Optimizer(
            OptimizerProperties settings,
            OptimizerRows rows,
            TaskStore tasks,
            TransactionTemplate transactions,
            WorkQueue queue) {
        this.settings = settings;
        this.rule = new OptimizerRule(settings);
        this.rows = rows;
        this.tasks = tasks;
        this.transactions = transactions;
        this.queue = queue;
    }

    /** @return the settings */
    public OptimizerProperties settings() {
        return settings;
    }

    /** @return where the result applier counts arrivals and faults */
    public PairMeter meter() {
        return meter;
    }

    /** @param listener hears every decision from now on */
    public void addListener(DecisionListener listener) {
        listeners.add(listener);
    }

    /**
     * A view of the admins' limits for one dispatch pass (one read of the limits table).
     *
     * @return the allowances of the pairs the pass asks about
     */
    public Allowances allowances() {
        if (!settings.enabled()) {
            return pair -> Allowance.UNLIMITED;
        }
        Map<UUID, EndpointLimits> limits = rows.allLimits();
        return pair -> {
            Range range = range(pair, limits);
            int concurrency = range.clamp(stateOf(pair, range).concurrency());
            return new Allowance(concurrency, parallelismOf(concurrency, range));
        };
    }

    /** The allowance of each endpoint pair in one dispatch pass. */
    @FunctionalInterface
    public interface Allowances {

        /**
         * @param pair {@code source>destination}
         * @return what the pair may have now
         */
        Allowance of(String pair);
    }

    /**
     * @param now the time
     * @return true if an interval passed since the last decision (the first call only starts the clock)
     */
    public boolean due(Instant now) {
        if (lastDecision == null) {
            lastDecision = now;
            return false;
        }
        return !now.isBefore(lastDecision.plus(settings.interval()));
    }

    /**
     * Decides for every pair that moved something in the interval or has an active task: folds
     * the interval's sample in, applies the rule within the pair's range, stores the decision,
     * writes an event on the pair's given tasks if the value changed, and tells the listeners.
     *
     * @param now the interval's end
     * @param active the ACTIVE transfer tasks this instance drives (their pairs are decided even
     *     when idle, and get the events)
     * @return the decisions, by pair name
     */
    public List<OptimizerDecision> decide(Instant now, Collection<LeasedTask> active) {
        Instant start = lastDecision == null ? now.minus(settings.interval()) : lastDecision;
        double seconds = Math.max(0.001, Duration.between(start, now).toMillis() / 1000.0);
        lastDecision = now;
        Map<String, PairSample> samples = meter.drain(seconds);
        if (!settings.enabled()) {
            return List.of();
        }
        prune(now);
        Set<String> pairs = new TreeSet<>(samples.keySet());
        active.forEach(task -> pairs.add(task.endpointPair()));
        if (pairs.isEmpty()) {
            return List.of();
        }
        Map<UUID, EndpointLimits> limits = rows.allLimits();
        List<OptimizerDecision> decisions = new ArrayList<>();
        for (String pair : pairs) {
            UUID[] ends = ends(pair);
            if (ends == null) {
                continue;
            }
            Range range = range(pair, limits);
            PairState before = stateOf(pair, range);
            PairSample sample = samples.getOrDefault(pair, new PairSample(0, 0, 0, seconds));
            OptimizerRule.Outcome outcome = rule.decide(before, sample, range);
            int previousParallelism = parallelismOf(range.clamp(before.concurrency()), range);
            int streams = parallelismOf(outcome.state().concurrency(), range);
            OptimizerDecision decision = new OptimizerDecision(
                    ends[0],
                    ends[1],
                    now,
                    sample.throughput(),
                    outcome.state().ema(),
                    outcome.successRate(),
                    sample.succeeded(),
                    sample.failed(),
                    before.concurrency(),
                    outcome.state().concurrency(),
                    streams,
                    range.min(),
                    range.max(),
                    outcome.reason());
            boolean changed =
                    decision.concurrency() != decision.previousConcurrency() || streams != previousParallelism;
            transactions.executeWithoutResult(status -> {
                rows.insert(decision);
                if (changed) {
                    for (LeasedTask task : active) {
                        if (task.endpointPair().equals(pair)) {
                            tasks.insertEvent(
                                    task.id(),
                                    EventCode.OPTIMIZER_DECISION,
                                    description(decision),
                                    details(decision),
                                    now);
                        }
                    }
                }
            });
            states.put(pair, outcome.state());
            parallelism.put(pair, streams);
            decisions.add(decision);
            log.debug(
                    "Optimizer {}: {} -> {} ({})",
                    pair,
                    before.concurrency(),
                    decision.concurrency(),
                    decision.reason());
            for (DecisionListener listener : listeners) {
                try {
                    listener.decided(decision);
                } catch (RuntimeException e) {
                    log.warn("An optimizer listener failed: {}", e.toString());
                }
            }
        }
        return decisions;
    }

    /** Deletes the decisions past the retention, at most once an hour (one indexed delete). */
    private void prune(Instant now) {
        if (lastPrune != null && now.isBefore(lastPrune.plus(PRUNE_EVERY))) {
            return;
        }
        lastPrune = now;
        Integer deleted = transactions.execute(status -> rows.deleteBefore(now.minus(settings.retention())));
        if (deleted != null && deleted > 0) {
            log.debug("Optimizer: deleted {} decisions older than {}", deleted, settings.retention());
        }
    }

    /**
     * @param pair {@code source>destination}
     * @return the pair's state now, or null if the optimizer has not seen it
     */
    public PairState state(String pair) {
        return states.get(pair);
    }

    private PairState stateOf(String pair, Range range) {
        return states.computeIfAbsent(pair, p -> {
            UUID[] ends = ends(p);
            OptimizerDecision last = ends == null ? null : rows.latest(ends[0], ends[1]);
            if (last != null) {
                return new PairState(
                        range.clamp(last.concurrency()), last.throughputEma(), last.throughputSample(), 0, 0);
            }
            return PairState.start(range.clamp(FIXED_RULE_CONCURRENCY * Math.max(1, queue.capacity())));
        });
    }

    private int parallelismOf(int concurrency, Range range) {
        return Math.max(1, Math.min(range.maxParallelism(), settings.maxStreamsPerPair() / Math.max(1, concurrency)));
    }

    /** @return the pair's range: the tighter of its endpoints' limits, else the defaults */
    Range range(String pair, Map<UUID, EndpointLimits> limits) {
        UUID[] ends = ends(pair);
        EndpointLimits source = ends == null ? EndpointLimits.NONE : limits.getOrDefault(ends[0], EndpointLimits.NONE);
        EndpointLimits destination =
                ends == null ? EndpointLimits.NONE : limits.getOrDefault(ends[1], EndpointLimits.NONE);
        int max = Math.min(
                or(source.maxConcurrency(), settings.maxConcurrency()),
                or(destination.maxConcurrency(), settings.maxConcurrency()));
        int min = Math.max(
                or(source.minConcurrency(), settings.minConcurrency()),
                or(destination.minConcurrency(), settings.minConcurrency()));
        int streams = Math.min(
                or(source.maxParallelism(), settings.maxParallelism()),
                or(destination.maxParallelism(), settings.maxParallelism()));
        max = Math.max(1, max);
        return new Range(Math.max(1, Math.min(min, max)), max, Math.max(1, streams));
    }

    private static int or(Integer value, int otherwise) {
        return value == null ? otherwise : value;
    }

    /** @return source and destination of {@code source>destination}, or null if it is not that */
    private static UUID[] ends(String pair) {
        int arrow = pair.indexOf('>');
        try {
            return arrow < 0
                    ? null
                    : new UUID[] {UUID.fromString(pair.substring(0, arrow)), UUID.fromString(pair.substring(arrow + 1))
                    };
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String description(OptimizerDecision d) {
        return String.format(
                Locale.ROOT,
                "Optimizer: %d -> %d session pairs between these endpoints, %d data connections per file: %s",
                d.previousConcurrency(),
                d.concurrency(),
                d.parallelism(),
                d.reason());
    }

    private static String details(OptimizerDecision d) {
        return String.format(
                Locale.ROOT,
                "{\"previous_concurrency\":%d,\"concurrency\":%d,\"parallelism\":%d,"
                        + "\"throughput_bytes_per_second\":%.0f,\"throughput_ema_bytes_per_second\":%.0f,"
                        + "\"success_rate\":%.1f,\"files_succeeded\":%d,\"files_failed\":%d,\"reason\":\"%s\"}",
                d.previousConcurrency(),
                d.concurrency(),
                d.parallelism(),
                d.throughputSample(),
                d.throughputEma(),
                d.successRate(),
                d.filesSucceeded(),
                d.filesFailed(),
                d.reason().replace("\\", "\\\\").replace("\"", "\\\""));
    }
}
