package org.ferry.scheduler.state;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.ferry.api.domain.Timer;
import org.ferry.api.store.Sql;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * SQL over the {@code timer} and {@code timer_run} rows for the ticks (the API writes timers with
 * JPA; ticks change counters and history here, under the timer row's lock).
 */
@Component
public class TimerRows {

    /**
     * What a tick needs of its timer.
     *
     * @param ownerName its user
     * @param name its name
     * @param body the transfer document (JSON)
     * @param maxRuns the run limit, or null
     * @param numberOfRuns runs so far
     * @param notifyOn {@code every_run} or {@code failure}: which runs e-mail the owner
     */
    public record TimerFacts(
            String ownerName, String name, String body, Integer maxRuns, int numberOfRuns, String notifyOn) {}

    private final JdbcTemplate jdbc;

    /** @param jdbc Ferry's database */
    public TimerRows(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Takes the timer row's lock (until the transaction ends); false if it is gone or not active. */
    public boolean lockActive(UUID timerId) {
        return jdbc.update(
                        "update timer set number_of_runs = number_of_runs where id = ? and status = ?",
                        timerId,
                        Timer.ACTIVE)
                > 0;
    }

    /** @return the timer's facts */
    public TimerFacts facts(UUID timerId) {
        return jdbc.queryForObject(
                "select owner_name, name, body, max_runs, number_of_runs, notify_on from timer where id = ?",
                (rs, n) -> new TimerFacts(
                        rs.getString(1),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getObject(4) == null ? null : rs.getInt(4),
                        rs.getInt(5),
                        rs.getString(6)),
                timerId);
    }

    /** @return true if the tick at this scheduled time has its row already */
    public boolean recorded(UUID timerId, Instant scheduled) {
        Integer n = jdbc.queryForObject(
                "select count(*) from timer_run where timer_id = ? and scheduled_time = ?",
                Integer.class,
                timerId,
                Sql.time(scheduled));
        return n != null && n > 0;
    }

    /** @return the task of the timer's latest submitted run, or null */
    public UUID previousTask(UUID timerId) {
        List<UUID> tasks = jdbc.queryForList(
                "select task_id from timer_run where timer_id = ? and outcome = 'SUBMITTED'"
                        + " order by scheduled_time desc fetch first 1 rows only",
                UUID.class,
                timerId);
        return tasks.isEmpty() ? null : tasks.get(0);
    }

    /** @return the task's status, or null if it is gone */
    public String taskStatus(UUID taskId) {
        List<String> status = jdbc.queryForList("select status from task where id = ?", String.class, taskId);
        return status.isEmpty() ? null : status.get(0);
    }

    /**
     * Records a tick and counts it: SUBMITTED as a run (and {@code last_ran_at}), SKIPPED as a
     * skip, ERROR as an error.
     */
    public void record(UUID timerId, Instant scheduled, String outcome, UUID taskId, String description) {
        Instant now = Instant.now();
        jdbc.update(
                "insert into timer_run (timer_id, scheduled_time, fired_time, outcome, task_id, description)"
                        + " values (?, ?, ?, ?, ?, ?)",
                timerId,
                Sql.time(scheduled),
                Sql.time(now),
                outcome,
                taskId,
                Sql.cut(description, 1024));
        switch (outcome) {
            case "SUBMITTED" ->
                jdbc.update(
                        "update timer set number_of_runs = number_of_runs + 1, last_ran_at = ? where id = ?",
                        Sql.time(now),
                        timerId);
            case "SKIPPED" ->
                jdbc.update("update timer set number_of_skips = number_of_skips + 1 where id = ?", timerId);
            default -> jdbc.update("update timer set number_of_errors = number_of_errors + 1 where id = ?", timerId);
        }
    }

    /** Marks the timer ended. */
    public void end(UUID timerId) {
        jdbc.update("update timer set status = ? where id = ?", Timer.ENDED, timerId);
    }
}
