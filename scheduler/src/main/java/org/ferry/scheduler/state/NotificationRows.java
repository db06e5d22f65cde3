package org.ferry.scheduler.state;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.ferry.api.store.Sql;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The e-mail outbox ({@code task_notification}): one row per task and kind (SUCCEEDED, FAILED,
 * INACTIVE), queued by {@link TaskStore} in the transaction that ends or suspends the task. A row
 * is claimed with an {@code UPDATE ... WHERE} that only one instance can win, so that two
 * ferry-server instances on one database never send the same message twice at once; the claim
 * expires, so that a crash while sending only delays the message.
 */
@Component
public class NotificationRows {

    private final JdbcTemplate jdbc;

    /** @param jdbc the database */
    public NotificationRows(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * A claimed outbox row.
     *
     * @param taskId the task
     * @param kind SUCCEEDED, FAILED or INACTIVE
     * @param attempts failed attempts so far
     */
    public record Claimed(UUID taskId, String kind, int attempts) {}

    /**
     * Claims up to {@code limit} rows that are due: not sent, fewer than {@code maxAttempts}
     * failed attempts, next attempt reached, and not claimed by a live claim.
     *
     * @param me this instance's name
     * @param now the time
     * @param claimUntil when this instance's claim lapses if it never reports back
     * @return the rows this instance won
     */
    public List<Claimed> claimDue(String me, Instant now, Instant claimUntil, int maxAttempts, int limit) {
        List<Claimed> due = jdbc.query(
                "select task_id, kind, attempts from task_notification where sent_time is null and attempts < ?"
                        + " and next_attempt <= ? and (claimed_by is null or claim_expires < ?)"
                        + " order by next_attempt",
                (rs, n) -> new Claimed(rs.getObject(1, UUID.class), rs.getString(2), rs.getInt(3)),
                maxAttempts,
                Sql.time(now),
                Sql.time(now));
        List<Claimed> won = new ArrayList<>();
        for (Claimed row : due) {
            if (won.size() >= limit) {
                break;
            }
            int claimed = jdbc.update(
                    "update task_notification set claimed_by = ?, claim_expires = ?"
                            + " where task_id = ? and kind = ? and sent_time is null and attempts = ?"
                            + " and (claimed_by is null or claim_expires < ?)",
                    me,
                    Sql.time(claimUntil),
                    row.taskId(),
                    row.kind(),
                    row.attempts(),
                    Sql.time(now));
            if (claimed == 1) {
                won.add(row);
            }
        }
        return won;
    }

    /**
     * Marks a claimed row sent.
     *
     * @return false if this instance no longer held the claim (another took it after it lapsed)
     */
    public boolean markSent(Claimed row, String me, Instant now) {
        return jdbc.update(
                        "update task_notification set sent_time = ?, claimed_by = null, claim_expires = null,"
                                + " last_error = null where task_id = ? and kind = ? and claimed_by = ?",
                        Sql.time(now),
                        row.taskId(),
                        row.kind(),
                        me)
                == 1;
    }

    /**
     * Records a failed attempt and releases the claim.
     *
     * @param nextAttempt when to try again
     * @param error what the mail server or the client said
     */
    public void markFailed(Claimed row, String me, Instant nextAttempt, String error) {
        jdbc.update(
                "update task_notification set attempts = attempts + 1, next_attempt = ?, last_error = ?,"
                        + " claimed_by = null, claim_expires = null where task_id = ? and kind = ? and claimed_by = ?",
                Sql.time(nextAttempt),
                Sql.cut(error, 1024),
                row.taskId(),
                row.kind(),
                me);
    }
}
