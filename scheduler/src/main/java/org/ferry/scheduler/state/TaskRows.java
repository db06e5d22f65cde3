package org.ferry.scheduler.state;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.ferry.api.domain.EventCode;
import org.ferry.api.domain.Task;
import org.ferry.api.domain.TaskStatus;
import org.ferry.api.lifecycle.TaskChangedEvent;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The task rows and their events, as the scheduler changes them: leases, start, plan totals,
 * faults and back-off, the end. Events of a task are written only while it is ACTIVE, under its
 * row lock (an update of the row comes first in the same transaction), so that nothing is newer
 * than the end event of a cancelled or expired task. Callers hold the transaction.
 */
@Component
public class TaskRows {

    private static final String ACTIVE = TaskStatus.ACTIVE.name();

    private final JdbcTemplate jdbc;
    private final ApplicationEventPublisher publisher;

    /**
     * @param jdbc the database
     * @param publisher tells live views (the web app's task page) that a task changed: a
     *     {@link TaskChangedEvent}, heard after the caller's transaction commits
     */
    public TaskRows(JdbcTemplate jdbc, ApplicationEventPublisher publisher) {
        this.jdbc = jdbc;
        this.publisher = publisher;
    }

    private void changed(UUID taskId) {
        publisher.publishEvent(new TaskChangedEvent(taskId));
    }

    /**
     * Takes the lease of every ACTIVE transfer task that has no live lease, and renews this
     * instance's (DELETE tasks are run by {@code DeleteTaskRunner}, not leased).
     *
     * @param me this instance's name
     * @param now the time
     * @param expires the new end of the leases
     * @return the tasks this instance drives now
     */
    public List<LeasedTask> renewLeases(String me, Instant now, Instant expires) {
        jdbc.update(
                "update task set lease_owner = ?, lease_expires = ? where status = ? and type = ?"
                        + " and (lease_owner is null or lease_owner = ? or lease_expires < ?)",
                me,
                Sql.time(expires),
                ACTIVE,
                Task.TYPE_TRANSFER,
                me,
                Sql.time(now));
        return jdbc.query(
                "select id, owner_name, plan_state, deadline, retry_after, source_endpoint_id,"
                        + " destination_endpoint_id, bytes_transferred + bytes_in_flight, files_transferred,"
                        + " delete_destination_extra, mirror_state"
                        + " from task where status = ? and type = ? and lease_owner = ? order by request_time",
                (rs, n) -> new LeasedTask(
                        rs.getObject(1, UUID.class),
                        rs.getString(2),
                        Task.PLAN_PLANNED.equals(rs.getString(3)),
                        Sql.instant(rs.getTimestamp(4)),
                        Sql.instant(rs.getTimestamp(5)),
                        rs.getObject(6, UUID.class),
                        rs.getObject(7, UUID.class),
                        rs.getLong(8),
                        rs.getLong(9),
                        rs.getBoolean(10) && rs.getString(11) == null),
                ACTIVE,
                Task.TYPE_TRANSFER,
                me);
    }

    /**
     * Marks work as begun: the start time (first time only), {@code nice_status = OK}, and the
     * STARTED event unless an earlier run wrote it.
     *
     * @return false if the task is no longer ACTIVE
     */
    public boolean markStarted(UUID taskId, Instant now) {
        int changed = jdbc.update(
                "update task set start_time = coalesce(start_time, ?), nice_status = ? where id = ? and status = ?",
                Sql.time(now),
                Task.NICE_OK,
                taskId,
                ACTIVE);
        if (changed == 0) {
            return false;
        }
        Integer started = jdbc.queryForObject(
                "select count(*) from task_event where task_id = ? and code = ?",
                Integer.class,
                taskId,
                EventCode.STARTED.name());
        if (started == null || started == 0) {
            insertEvent(taskId, EventCode.STARTED, "Starting the transfer", null, now);
        }
        return true;
    }

    /**
     * Records the plan's totals and marks the task PLANNED: from now on its file rows are the
     * truth and it is never crawled again.
     *
     * @return false if the task is no longer ACTIVE
     */
    public boolean recordPlan(
            UUID taskId, long files, long directories, long filesSkipped, long skippedErrors, long toMove) {
        changed(taskId);
        return jdbc.update(
                        "update task set files = ?, directories = ?, subtasks_total = ?, files_skipped = ?,"
                                + " subtasks_succeeded = ?, subtasks_skipped_errors = ?, files_transferred = 0,"
                                + " bytes_transferred = 0, subtasks_failed = 0, plan_state = ?, retry_after = null,"
                                + " consecutive_faults = 0 where id = ? and status = ?",
                        files,
                        directories,
                        files,
                        filesSkipped,
                        filesSkipped,
                        skippedErrors,
                        Task.PLAN_PLANNED,
                        taskId,
                        ACTIVE)
                > 0;
    }

    /**
     * A transient fault stopped work on the task (planning, or a chunk whose endpoint is down):
     * {@code nice_status} shows the code, the fault counter grows, and nothing is dispatched
     * before {@code retryAfter}.
     *
     * @return the consecutive faults now (0 if the task is not ACTIVE)
     */
    public int backOff(UUID taskId, String code, Instant retryAfter) {
        changed(taskId);
        int changed = jdbc.update(
                "update task set nice_status = ?, retry_after = ?, consecutive_faults = consecutive_faults + 1"
                        + " where id = ? and status = ?",
                code,
                Sql.time(retryAfter),
                taskId,
                ACTIVE);
        if (changed == 0) {
            return 0;
        }
        Integer faults = jdbc.queryForObject("select consecutive_faults from task where id = ?", Integer.class, taskId);
        return faults == null ? 0 : faults;
    }

    /** @return the consecutive transient faults of the task so far */
    public int consecutiveFaults(UUID taskId) {
        List<Integer> faults =
                jdbc.queryForList("select consecutive_faults from task where id = ?", Integer.class, taskId);
        return faults.isEmpty() ? 0 : faults.get(0);
    }

    /** Sets the back-off end without counting a fault (e.g. after the count was taken). */
    public void retryAfter(UUID taskId, Instant retryAfter) {
        jdbc.update(
                "update task set retry_after = ? where id = ? and status = ?", Sql.time(retryAfter), taskId, ACTIVE);
    }

    /**
     * Adds faults to the counter and shows the latest code in {@code nice_status}.
     *
     * @return true if the task is ACTIVE (its row is now locked: events may follow)
     */
    public boolean addFaults(UUID taskId, long faults, String niceStatus) {
        changed(taskId);
        return jdbc.update(
                        "update task set faults = faults + ?, nice_status = ? where id = ? and status = ?",
                        faults,
                        niceStatus,
                        taskId,
                        ACTIVE)
                > 0;
    }

    /**
     * Counts arrived files; the task is working again ({@code nice_status = OK}, back-off cleared).
     */
    public void addArrived(UUID taskId, long files, long bytes) {
        changed(taskId);
        jdbc.update(
                "update task set files_transferred = files_transferred + ?, bytes_transferred = bytes_transferred + ?,"
                        + " subtasks_succeeded = subtasks_succeeded + ? where id = ?",
                files,
                bytes,
                files,
                taskId);
        jdbc.update(
                "update task set nice_status = ?, retry_after = null, consecutive_faults = 0"
                        + " where id = ? and status = ? and (consecutive_faults <> 0 or nice_status <> ?)",
                Task.NICE_OK,
                taskId,
                ACTIVE,
                Task.NICE_OK);
    }

    /** Counts failed and skipped subtasks. */
    public void addFailedAndSkipped(UUID taskId, long failed, long skipped) {
        changed(taskId);
        jdbc.update(
                "update task set subtasks_failed = subtasks_failed + ?,"
                        + " subtasks_skipped_errors = subtasks_skipped_errors + ? where id = ?",
                failed,
                skipped,
                taskId);
    }

    /** Sets the bytes in flight to the sum over the task's active chunks. */
    public void refreshBytesInFlight(UUID taskId) {
        changed(taskId);
        jdbc.update(
                "update task set bytes_in_flight = (select coalesce(sum(c.bytes_in_flight), 0) from chunk c"
                        + " where c.task_id = ? and c.state = 'ACTIVE') where id = ?",
                taskId,
                taskId);
    }

    /**
     * @return true if the task asks for {@code delete_destination_extra} and the extras are not
     *     deleted yet (the task must not end before)
     */
    public boolean mirrorPending(UUID taskId) {
        Integer pending = jdbc.queryForObject(
                "select count(*) from task where id = ? and delete_destination_extra = TRUE and mirror_state is null",
                Integer.class,
                taskId);
        return pending != null && pending > 0;
    }

    /**
     * Records that the destination extras were deleted (or their deletion skipped), so the task
     * may end.
     *
     * @param state {@code DONE} or {@code SKIPPED}
     * @return false if the task is no longer ACTIVE
     */
    public boolean markMirrored(UUID taskId, String state) {
        return jdbc.update("update task set mirror_state = ? where id = ? and status = ?", state, taskId, ACTIVE) > 0;
    }

    /**
     * Records an event if the task is ACTIVE, under its row lock.
     *
     * @return false if the task had ended and nothing was written
     */
    public boolean eventIfActive(UUID taskId, EventCode code, String description, String details) {
        if (jdbc.update("update task set nice_status = nice_status where id = ? and status = ?", taskId, ACTIVE) == 0) {
            return false;
        }
        insertEvent(taskId, code, description, details, Instant.now());
        return true;
    }

    /** Writes an event (the caller holds the task's row lock, or the task has just ended). */
    public void insertEvent(UUID taskId, EventCode code, String description, String details, Instant time) {
        changed(taskId);
        jdbc.update(
                "insert into task_event (task_id, code, is_error, description, details, event_time)"
                        + " values (?, ?, ?, ?, ?, ?)",
                taskId,
                code.name(),
                code.isError(),
                Sql.cut(description, 1024),
                Sql.cut(details, 8000),
                Sql.time(time));
    }

    /**
     * Suspends an ACTIVE task until an endpoint is activated again (Globus: "credentials expire"
     * makes a task INACTIVE): status INACTIVE, {@code nice_status = NO_CREDENTIALS}, no lease and
     * no back-off (no instance drives it until it resumes), and a {@code NO_CREDENTIALS} event
     * saying which endpoint and what to do. Its file rows stay as they are.
     *
     * @param description the event's text
     * @return true if this call suspended the task (false if it was not ACTIVE)
     */
    public boolean suspend(UUID taskId, String description, Instant now) {
        int changed = jdbc.update(
                "update task set status = ?, nice_status = ?, lease_owner = null, lease_expires = null,"
                        + " retry_after = null, consecutive_faults = 0, bytes_in_flight = 0"
                        + " where id = ? and status = ?",
                TaskStatus.INACTIVE.name(),
                EventCode.NO_CREDENTIALS.name(),
                taskId,
                ACTIVE);
        if (changed == 0) {
            return false;
        }
        insertEvent(taskId, EventCode.NO_CREDENTIALS, description, null, now);
        queueNotification(taskId, TaskStatus.INACTIVE, now);
        return true;
    }

    /**
     * Makes an INACTIVE task ACTIVE again ({@code nice_status = Queued}) with a RESUMED event; the
     * next tick leases, plans or dispatches it.
     *
     * @param description the event's text
     * @return true if this call resumed the task (false if it was not INACTIVE)
     */
    public boolean resume(UUID taskId, String description, Instant now) {
        int changed = jdbc.update(
                "update task set status = ?, nice_status = ?, retry_after = null, consecutive_faults = 0"
                        + " where id = ? and status = ?",
                ACTIVE,
                Task.NICE_QUEUED,
                taskId,
                TaskStatus.INACTIVE.name());
        if (changed == 0) {
            return false;
        }
        insertEvent(taskId, EventCode.RESUMED, description, null, now);
        return true;
    }

    /** @return INACTIVE tasks (of both types) whose deadline has passed */
    public List<UUID> inactivePastDeadline(Instant now) {
        return jdbc.queryForList(
                "select id from task where status = ? and deadline <= ?",
                UUID.class,
                TaskStatus.INACTIVE.name(),
                Sql.time(now));
    }

    /** @return INACTIVE tasks of the type, oldest first */
    public List<UUID> inactive(String type) {
        return jdbc.queryForList(
                "select id from task where status = ? and type = ? order by request_time",
                UUID.class,
                TaskStatus.INACTIVE.name(),
                type);
    }

    /**
     * @return the owner's tasks in the status that move data from or to the endpoint, oldest first
     */
    public List<UUID> usingEndpoint(TaskStatus status, String owner, UUID endpointId) {
        return jdbc.queryForList(
                "select id from task where status = ? and owner_name = ?"
                        + " and (source_endpoint_id = ? or destination_endpoint_id = ?) order by request_time",
                UUID.class,
                status.name(),
                owner,
                endpointId,
                endpointId);
    }

    /**
     * Ends an ACTIVE task (the first end wins: a cancel that came first is kept) and writes the
     * end event: SUCCEEDED with the counters, or the fatal fault's code. A fatal end (a deadline,
     * a failure) also ends an INACTIVE task; only an ACTIVE one succeeds.
     *
     * @param fatalCode null for SUCCEEDED
     * @param fatalDescription null for SUCCEEDED
     * @return true if this call ended the task
     */
    public boolean finish(UUID taskId, String fatalCode, String fatalDescription, Instant now) {
        changed(taskId);
        boolean succeeded = fatalCode == null;
        int changed = jdbc.update(
                "update task set status = ?, nice_status = null, completion_time = ?, fatal_error_code = ?,"
                        + " fatal_error_description = ?, bytes_in_flight = 0, lease_owner = null, lease_expires = null"
                        + " where id = ? and (status = ? or status = ?)",
                succeeded ? TaskStatus.SUCCEEDED.name() : TaskStatus.FAILED.name(),
                Sql.time(now),
                fatalCode,
                Sql.cut(fatalDescription, 4000),
                taskId,
                ACTIVE,
                succeeded ? ACTIVE : TaskStatus.INACTIVE.name());
        if (changed == 0) {
            return false;
        }
        if (succeeded) {
            String details = jdbc.queryForObject(
                    "select bytes_transferred, files_transferred from task where id = ?",
                    (rs, n) ->
                            "{\"bytes_transferred\":" + rs.getLong(1) + ",\"files_transferred\":" + rs.getLong(2) + "}",
                    taskId);
            insertEvent(taskId, EventCode.SUCCEEDED, "The task completed successfully", details, now);
        } else {
            EventCode code;
            try {
                code = EventCode.valueOf(fatalCode);
            } catch (IllegalArgumentException e) {
                code = EventCode.UNKNOWN;
            }
            insertEvent(taskId, code, fatalDescription, null, now);
        }
        queueNotification(taskId, succeeded ? TaskStatus.SUCCEEDED : TaskStatus.FAILED, now);
        return true;
    }

    /**
     * Puts the owner's e-mail about the task's new status in the outbox ({@code task_notification}),
     * in the caller's transaction: only if the task's {@code notify_on_*} flag for it is set, the
     * owner has an address, and no message of that kind was queued for the task before (one per
     * task and kind). {@code org.ferry.scheduler.notify} sends it after the commit.
     *
     * @param kind SUCCEEDED, FAILED or INACTIVE
     */
    void queueNotification(UUID taskId, TaskStatus kind, Instant now) {
        String flag = switch (kind) {
            case SUCCEEDED -> "notify_on_succeeded";
            case FAILED -> "notify_on_failed";
            case INACTIVE -> "notify_on_inactive";
            default -> throw new IllegalArgumentException("No notification for " + kind);
        };
        jdbc.update(
                "insert into task_notification (task_id, kind, created_time, attempts, next_attempt)"
                        + " select t.id, ?, ?, 0, ? from task t join ferry_user u on u.name = t.owner_name"
                        + " where t.id = ? and t." + flag + " = true and u.email is not null"
                        + " and not exists (select 1 from task_notification n where n.task_id = t.id and n.kind = ?)",
                kind.name(),
                Sql.time(now),
                Sql.time(now),
                taskId,
                kind.name());
    }
}
