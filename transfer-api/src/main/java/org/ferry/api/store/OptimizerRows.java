package org.ferry.api.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.ferry.api.domain.EndpointLimits;
import org.ferry.api.domain.OptimizerDecision;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The optimizer's rows: its decisions per endpoint pair ({@code optimizer_decision}) and the
 * admins' limits per endpoint ({@code endpoint_optimizer_limits}). Callers hold the transaction.
 */
@Component
public class OptimizerRows {

    private static final String DECISION_COLUMNS = "source_endpoint_id, destination_endpoint_id, decision_time,"
            + " throughput_sample, throughput_ema, success_rate, files_succeeded, files_failed,"
            + " previous_concurrency, concurrency, parallelism, min_concurrency, max_concurrency, reason";

    private final JdbcTemplate jdbc;

    /** @param jdbc the database */
    public OptimizerRows(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Stores a decision. */
    public void insert(OptimizerDecision d) {
        jdbc.update(
                "insert into optimizer_decision (" + DECISION_COLUMNS
                        + ") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                d.sourceEndpointId(),
                d.destinationEndpointId(),
                Sql.time(d.time()),
                d.throughputSample(),
                d.throughputEma(),
                d.successRate(),
                d.filesSucceeded(),
                d.filesFailed(),
                d.previousConcurrency(),
                d.concurrency(),
                d.parallelism(),
                d.minConcurrency(),
                d.maxConcurrency(),
                Sql.cut(d.reason(), 512));
    }

    /**
     * Deletes the decisions older than {@code before} (the retention).
     *
     * @return how many
     */
    public int deleteBefore(Instant before) {
        return jdbc.update("delete from optimizer_decision where decision_time < ?", Sql.time(before));
    }

    /** @return the latest decision of every pair that has one, newest first */
    public List<OptimizerDecision> current() {
        return jdbc.query(
                "select " + DECISION_COLUMNS + " from optimizer_decision d where d.id = (select max(e.id)"
                        + " from optimizer_decision e where e.source_endpoint_id = d.source_endpoint_id"
                        + " and e.destination_endpoint_id = d.destination_endpoint_id) order by d.decision_time desc",
                OptimizerRows::decision);
    }

    /**
     * @param source the pair's source endpoint
     * @param destination the pair's destination endpoint
     * @param since the oldest decision to return, or null for all
     * @param limit most decisions (the newest)
     * @return the pair's decisions, oldest first
     */
    public List<OptimizerDecision> evolution(UUID source, UUID destination, Instant since, int limit) {
        List<OptimizerDecision> newest = jdbc.query(
                "select " + DECISION_COLUMNS + " from optimizer_decision where source_endpoint_id = ?"
                        + " and destination_endpoint_id = ? and decision_time >= ? order by id desc fetch first "
                        + Math.max(1, limit) + " rows only",
                OptimizerRows::decision,
                source,
                destination,
                Sql.time(since == null ? Instant.EPOCH : since));
        List<OptimizerDecision> oldestFirst = new ArrayList<>(newest);
        Collections.reverse(oldestFirst);
        return oldestFirst;
    }

    /** @return the pair's latest decision, or null */
    public OptimizerDecision latest(UUID source, UUID destination) {
        List<OptimizerDecision> last = evolution(source, destination, null, 1);
        return last.isEmpty() ? null : last.get(0);
    }

    /** @return the limits of every endpoint that has some */
    public Map<UUID, EndpointLimits> allLimits() {
        Map<UUID, EndpointLimits> limits = new HashMap<>();
        jdbc.query(
                "select endpoint_id, min_concurrency, max_concurrency, max_parallelism from endpoint_optimizer_limits",
                rs -> {
                    limits.put(rs.getObject(1, UUID.class), limits(rs));
                });
        return limits;
    }

    /** @return the endpoint's limits, {@link EndpointLimits#NONE} if it has none */
    public EndpointLimits limitsOf(UUID endpointId) {
        List<EndpointLimits> found = jdbc.query(
                "select endpoint_id, min_concurrency, max_concurrency, max_parallelism from endpoint_optimizer_limits"
                        + " where endpoint_id = ?",
                (rs, n) -> limits(rs),
                endpointId);
        return found.isEmpty() ? EndpointLimits.NONE : found.get(0);
    }

    /** Replaces the endpoint's limits. */
    public void saveLimits(UUID endpointId, EndpointLimits limits) {
        jdbc.update("delete from endpoint_optimizer_limits where endpoint_id = ?", endpointId);
        jdbc.update(
                "insert into endpoint_optimizer_limits (endpoint_id, min_concurrency, max_concurrency, max_parallelism)"
                        + " values (?, ?, ?, ?)",
                endpointId,
                limits.minConcurrency(),
                limits.maxConcurrency(),
                limits.maxParallelism());
    }

    private static EndpointLimits limits(ResultSet rs) throws SQLException {
        return new EndpointLimits(
                rs.getObject(2, Integer.class), rs.getObject(3, Integer.class), rs.getObject(4, Integer.class));
    }

    private static OptimizerDecision decision(ResultSet rs, int n) throws SQLException {
        return new OptimizerDecision(
                rs.getObject(1, UUID.class),
                rs.getObject(2, UUID.class),
                Sql.instant(rs.getTimestamp(3)),
                rs.getDouble(4),
                rs.getDouble(5),
                rs.getDouble(6),
                rs.getInt(7),
                rs.getInt(8),
                rs.getInt(9),
                rs.getInt(10),
                rs.getInt(11),
                rs.getInt(12),
                rs.getInt(13),
                rs.getString(14));
    }
}
