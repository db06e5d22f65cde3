package org.ferry.api.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.ferry.api.domain.EventCode;
import org.ferry.api.domain.FileState;
import org.ferry.api.domain.MirrorState;
import org.ferry.api.domain.PlanState;
import org.ferry.api.domain.Task;
import org.ferry.api.domain.TaskStatus;
import org.ferry.api.domain.TaskType;
import org.ferry.api.lifecycle.TaskChangedEvent;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The task rows, their items and their events: every write of the {@code task},
 * {@code transfer_item}, {@code delete_item} and {@code task_event} tables. A status changes only
 * by a {@link TaskTransition}, as a conditional update on the transition's {@code from} states, so
 * the first end of a task wins and a transition out of any other state changes nothing. Events of
 * a task are written only while it is ACTIVE, under its row lock (an update of the row comes
 * first in the same transaction), so that nothing is newer than the end event of a cancelled or
 * expired task. Every change publishes a {@link TaskChangedEvent} (heard after the commit by live
 * views). Callers hold the transaction.
 */
@Component
public class TaskStore {

    private static final String ACTIVE = TaskStatus.ACTIVE.name();

    private final JdbcTemplate jdbc;
    private final ApplicationEventPublisher publisher;

    /**
     * @param jdbc the database
     * @param publisher tells live views (the web app's task page) that a task changed: a
     *     {@link TaskChangedEvent}, heard after the caller's transaction commits
     */
    public TaskStore(JdbcTemplate jdbc, ApplicationEventPublisher publisher) {
        this.jdbc = jdbc;
        this.publisher = publisher;
    }

    private void changed(UUID taskId) {
        publisher.publishEvent(new TaskChangedEvent(taskId));
    }

    // ---- creation -------------------------------------------------------------------------------

    /**
     * Stores a new ACTIVE, queued task (plan state NEW, zero counters) and its items.
     *
     * @param task what was asked
     * @return the new task's id
     * @throws org.springframework.dao.DataIntegrityViolationException if its submission id was
     *     used before (a concurrent submission committed first)
     */
    public UUID create(NewTask task) {
        UUID id = UUID.randomUUID();
        jdbc.update(
                "insert into task (id, submission_id, owner_name, type, status, nice_status, label, request_time,"
                        + " deadline, source_endpoint_id, source_endpoint, destination_endpoint_id,"
                        + " destination_endpoint, sync_level, verify_checksum, encrypt_data, preserve_timestamp,"
                        + " skip_source_errors, delete_destination_extra, filter_rules, delete_recursive,"
                        + " ignore_missing, notify_on_succeeded, notify_on_failed, notify_on_inactive, plan_state,"
                        + " files, directories, files_transferred, files_skipped, bytes_transferred, faults,"
                        + " subtasks_total, subtasks_succeeded, subtasks_failed, fail_on_quota_errors,"
                        + " checksum_algorithm, verify_tree_digest)"
                        + " values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                        + " 0, 0, 0, 0, 0, 0, 0, 0, 0, ?, ?, ?)",
                id,
                task.submissionId(),
                task.ownerName(),
                task.type().name(),
                ACTIVE,
                Task.NICE_QUEUED,
                task.label(),
                Sql.time(task.requestTime()),
                Sql.time(task.deadline()),
                task.sourceEndpointId(),
                task.sourceEndpoint(),
                task.destinationEndpointId(),
                task.destinationEndpoint(),
                task.syncLevel() == null ? null : task.syncLevel().level(),
                task.verifyChecksum(),
                task.encryptData(),
                task.preserveTimestamp(),
                task.skipSourceErrors(),
                task.deleteDestinationExtra(),
                task.filterRules() == null || task.filterRules().isEmpty()
                        ? null
                        : task.filterRules().toJson(),
                task.deleteRecursive(),
                task.ignoreMissing(),
                task.notifyOnSucceeded(),
                task.notifyOnFailed(),
                task.notifyOnInactive(),
                PlanState.NEW.name(),
                task.failOnQuotaErrors(),
                task.checksumAlgorithm(),
                task.verifyTreeDigest());
        for (int i = 0; i < task.additionalDestinations().size(); i++) {
            NewTask.Destination destination = task.additionalDestinations().get(i);
            jdbc.update(
                    "insert into task_destination (task_id, position, endpoint_id, endpoint) values (?, ?, ?, ?)",
                    id,
                    i,
                    destination.endpointId(),
                    destination.endpoint());
        }
        if (task.type() == TaskType.TRANSFER) {
            List<Object[]> rows = new ArrayList<>(task.transferItems().size());
            for (int i = 0; i < task.transferItems().size(); i++) {
                NewTask.Item item = task.transferItems().get(i);
                rows.add(new Object[] {
                    UUID.randomUUID(),
                    id,
                    i,
                    item.sourcePath(),
                    item.destinationPath(),
                    item.recursive(),
                    item.externalChecksum()
                });
            }
            jdbc.batchUpdate(
                    "insert into transfer_item (id, task_id, item_index, source_path, destination_path, recursive,"
                            + " external_checksum) values (?, ?, ?, ?, ?, ?, ?)",
                    rows);
        } else {
            List<Object[]> rows = new ArrayList<>(task.deletePaths().size());
            for (int i = 0; i < task.deletePaths().size(); i++) {
                rows.add(new Object[] {
                    UUID.randomUUID(), id, i, task.deletePaths().get(i)
                });
            }
            jdbc.batchUpdate("insert into delete_item (id, task_id, item_index, path) values (?, ?, ?, ?)", rows);
        }
        return id;
    }

    // ---- leases ---------------------------------------------------------------------------------

    /**
     * Takes the lease of every ACTIVE task (transfer and delete) that has no live lease, and renews
     * this instance's: the lease decides which ferry-server instance drives a task (one at a time);
     * an instance that stops renewing loses its tasks to another when the lease runs out.
     *
     * @param me this instance's name
     * @param now the time
     * @param expires the new end of the leases
     * @return the tasks this instance drives now, oldest first
     */
    public List<LeasedTask> renewLeases(String me, Instant now, Instant expires) {
        jdbc.update(
                "update task set lease_owner = ?, lease_expires = ? where status = ?"
                        + " and (lease_owner is null or lease_owner = ? or lease_expires < ?)",
                me,
                Sql.time(expires),
                ACTIVE,
                me,
                Sql.time(now));
        return leasedTasks(me, now);
    }

    /**
     * The tasks whose live lease this instance holds, renewing none: for a pass between two
     * renewals (one woken by a submission or a chunk's end), which need not rewrite every ACTIVE
     * task row. A lease that ran out is not this instance's any more, even if no other took it.
     *
     * @param me this instance's name
     * @param now the time; leases that end at or before it are left out
     * @return the tasks this instance drives now, oldest first
     */
    public List<LeasedTask> leasedTasks(String me, Instant now) {
        return jdbc.query(
                "select id, type, owner_name, plan_state, deadline, retry_after, source_endpoint_id,"
                        + " source_endpoint, destination_endpoint_id, destination_endpoint,"
                        + " bytes_transferred + bytes_in_flight, files_transferred, delete_destination_extra,"
                        + " mirror_state, verify_checksum, encrypt_data, preserve_timestamp, nice_status,"
                        + " checksum_algorithm, verify_tree_digest from task where status = ? and lease_owner = ?"
                        + " and lease_expires > ?"
                        + " order by request_time",
                (rs, n) -> new LeasedTask(
                        rs.getObject(1, UUID.class),
                        TaskType.valueOf(rs.getString(2)),
                        rs.getString(3),
                        PlanState.PLANNED.name().equals(rs.getString(4)),
                        Sql.instant(rs.getTimestamp(5)),
                        Sql.instant(rs.getTimestamp(6)),
                        rs.getString(18),
                        rs.getObject(7, UUID.class),
                        rs.getString(8),
                        rs.getObject(9, UUID.class),
                        rs.getString(10),
                        rs.getLong(11),
                        rs.getLong(12),
                        (rs.getBoolean(13) || rs.getBoolean(20)) && rs.getString(14) == null,
                        new LeasedTask.ChunkOptions(
                                rs.getBoolean(15), rs.getBoolean(16), rs.getBoolean(17), rs.getString(19))),
                ACTIVE,
                me,
                Sql.time(now));
    }

    /**
     * Takes the lease of one ACTIVE task that has no live lease (a task just submitted here, whose
     * work can start at once instead of on the next tick).
     *
     * @param me this instance's name
     * @param now the time
     * @param expires the lease's end
     * @return true if this instance holds the task's lease now
     */
    public boolean claimLease(UUID taskId, String me, Instant now, Instant expires) {
        return jdbc.update(
                        "update task set lease_owner = ?, lease_expires = ? where id = ? and status = ?"
                                + " and (lease_owner is null or lease_owner = ? or lease_expires < ?)",
                        me,
                        Sql.time(expires),
                        taskId,
                        ACTIVE,
                        me,
                        Sql.time(now))
                > 0;
    }

    /**
     * @param me this instance's name
     * @param taskIds tasks whose chunks or jobs run here
     * @return those that are ACTIVE and leased by another instance now (it drives them: their work
     *     here must stop); a task that ended or went INACTIVE is not among them
     */
    public Set<UUID> leasedElsewhere(String me, Collection<UUID> taskIds) {
        if (taskIds.isEmpty()) {
            return Set.of();
        }
        List<Object> arguments = new ArrayList<>(taskIds.size() + 2);
        arguments.add(ACTIVE);
        arguments.add(me);
        arguments.addAll(taskIds);
        return new HashSet<>(jdbc.queryForList(
                "select id from task where status = ? and lease_owner is not null and lease_owner <> ? and id in ("
                        + String.join(",", Collections.nCopies(taskIds.size(), "?")) + ")",
                UUID.class,
                arguments.toArray()));
    }

    // ---- work on an ACTIVE task -----------------------------------------------------------------

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
     * Shows why an ACTIVE task waits for a chunk slot ({@link Task#NICE_QUEUED_USER_LIMIT},
     * {@link Task#NICE_QUEUED_PAIR_LIMIT}, {@link Task#NICE_QUEUED_NO_SLOT}), or, with
     * {@link Task#NICE_OK}, that a task that waited so moves again (a task showing a fault keeps
     * it then: the first arrival clears it).
     *
     * @param taskId the task
     * @param niceStatus a queued code, or OK
     */
    public void showWaiting(UUID taskId, String niceStatus) {
        changed(taskId);
        if (Task.NICE_OK.equals(niceStatus)) {
            jdbc.update(
                    "update task set nice_status = ? where id = ? and status = ? and nice_status in (?, ?, ?)",
                    niceStatus,
                    taskId,
                    ACTIVE,
                    Task.NICE_QUEUED_USER_LIMIT,
                    Task.NICE_QUEUED_PAIR_LIMIT,
                    Task.NICE_QUEUED_NO_SLOT);
        } else {
            jdbc.update("update task set nice_status = ? where id = ? and status = ?", niceStatus, taskId, ACTIVE);
        }
    }

    /**
     * Records a transfer's plan totals and marks it PLANNED ({@link PlanState}): from now on its
     * file rows are the truth and it is never crawled again.
     *
     * @return false if the task is no longer ACTIVE
     */
    public boolean recordPlan(UUID taskId, long files, long directories, long filesSkipped, long skippedErrors) {
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
                        PlanState.PLANNED.name(),
                        taskId,
                        ACTIVE)
                > 0;
    }

    /**
     * Counts what a delete task removed, as it goes: every deleted file is a subtask that
     * succeeded; the task is working ({@code nice_status = OK}, no fault in a row). Fenced by the
     * lease: only the instance that drives the task counts.
     *
     * @param me this instance's name
     * @param files files (and links) removed since the last call
     * @param directories directories removed since the last call
     * @return false if the task is no longer ACTIVE or another instance drives it now (its walk
     *     here must stop)
     */
    public boolean countDeleted(UUID taskId, String me, long files, long directories) {
        changed(taskId);
        return jdbc.update(
                        "update task set files = files + ?, directories = directories + ?,"
                                + " subtasks_total = subtasks_total + ?, files_transferred = files_transferred + ?,"
                                + " subtasks_succeeded = subtasks_succeeded + ?, nice_status = ?,"
                                + " consecutive_faults = 0, retry_after = null"
                                + " where id = ? and status = ? and lease_owner = ?",
                        files,
                        directories,
                        files,
                        files,
                        files,
                        Task.NICE_OK,
                        taskId,
                        ACTIVE,
                        me)
                > 0;
    }

    /**
     * @return whether the task is ACTIVE and this instance drives it (holds its lease)
     */
    public boolean drives(UUID taskId, String me) {
        Integer held = jdbc.queryForObject(
                "select count(*) from task where id = ? and status = ? and lease_owner = ?",
                Integer.class,
                taskId,
                ACTIVE,
                me);
        return held != null && held > 0;
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

    /**
     * The task waits for an endpoint that is away (a personal endpoint whose agent is not
     * connected): {@code nice_status} shows the code and nothing is dispatched before
     * {@code retryAfter}; no fault is counted (waiting is not failing).
     *
     * @return true if {@code nice_status} showed another code before (the wait begins now)
     */
    public boolean waitFor(UUID taskId, String code, Instant retryAfter) {
        List<String> before = jdbc.queryForList(
                "select nice_status from task where id = ? and status = ?", String.class, taskId, ACTIVE);
        if (before.isEmpty()) {
            return false;
        }
        changed(taskId);
        jdbc.update(
                "update task set nice_status = ?, retry_after = ? where id = ? and status = ?",
                code,
                Sql.time(retryAfter),
                taskId,
                ACTIVE);
        return !code.equals(before.get(0));
    }

    /**
     * Ends a wait that {@link #waitFor} began: the endpoint is back, so {@code nice_status} shows
     * OK again at once rather than at the task's next progress.
     *
     * @param taskId the task
     * @param code the wait's code; another {@code nice_status} (a fault shown since) is kept
     */
    public void endWait(UUID taskId, String code) {
        if (jdbc.update(
                        "update task set nice_status = ? where id = ? and status = ? and nice_status = ?",
                        Task.NICE_OK,
                        taskId,
                        ACTIVE,
                        code)
                > 0) {
            changed(taskId);
        }
    }

    /** @return the consecutive transient faults of the task so far */
    public int consecutiveFaults(UUID taskId) {
        List<Integer> faults =
                jdbc.queryForList("select consecutive_faults from task where id = ?", Integer.class, taskId);
        return faults.isEmpty() ? 0 : faults.get(0);
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
     * @param taskId a task
     * @return the bytes of its files still to move: the sizes of its PENDING and ACTIVE files (an
     *     index-only sum) less what of them is in flight; 0 when none is left
     */
    public long bytesLeft(UUID taskId) {
        Long open = jdbc.queryForObject(
                "select coalesce(sum(size_bytes), 0) from transfer_file where task_id = ? and state in (?, ?)",
                Long.class,
                taskId,
                FileState.PENDING.name(),
                FileState.ACTIVE.name());
        Long inFlight = jdbc.queryForObject("select bytes_in_flight from task where id = ?", Long.class, taskId);
        return Math.max(0, (open == null ? 0 : open) - (inFlight == null ? 0 : inFlight));
    }

    /** @return whether the task asked for {@code skip_source_errors} */
    public boolean skipsSourceErrors(UUID taskId) {
        List<Boolean> skip =
                jdbc.queryForList("select skip_source_errors from task where id = ?", Boolean.class, taskId);
        return !skip.isEmpty() && Boolean.TRUE.equals(skip.get(0));
    }

    /**
     * @param taskId a task
     * @return its further destinations (Ferry's multicast extension), in order; empty for a task
     *     with one destination
     */
    public List<NewTask.Destination> additionalDestinations(UUID taskId) {
        return jdbc.query(
                "select endpoint_id, endpoint from task_destination where task_id = ? order by position",
                (rs, row) -> new NewTask.Destination(rs.getObject(1, UUID.class), rs.getString(2)),
                taskId);
    }

    /**
     * A multicast task's files in flight per destination: the sums of its ACTIVE chunks' last
     * reports ({@code bytes/files,...}, see {@link ChunkProgress#destinationsInFlight}), and of what
     * its files waiting for their next chunk held at their last fault ({@link
     * FileStore#destinationsHeld}).
     *
     * @param taskId a task
     * @param destinations how many destinations it has (the first and the further ones)
     * @return per destination {@code [bytes, files]} in flight there, the first destination first
     */
    public List<long[]> destinationsInFlight(UUID taskId, int destinations) {
        List<long[]> sums = new ArrayList<>();
        for (int i = 0; i < destinations; i++) {
            sums.add(new long[2]);
        }
        jdbc.query(
                "select destinations_in_flight from chunk where task_id = ? and state = 'ACTIVE'"
                        + " and destinations_in_flight is not null"
                        + " union all select destinations_held from transfer_file where task_id = ?"
                        + " and state = 'PENDING' and destinations_held is not null",
                rs -> {
                    String[] parts = rs.getString(1).split(",");
                    for (int i = 0; i < parts.length && i < destinations; i++) {
                        String[] pair = parts[i].split("/");
                        sums.get(i)[0] += Long.parseLong(pair[0].strip());
                        sums.get(i)[1] += pair.length > 1 ? Long.parseLong(pair[1].strip()) : 0;
                    }
                },
                taskId,
                taskId);
        return sums;
    }

    /**
     * @param taskIds tasks (a page of a task list)
     * @return the further destinations of those that have any, each in order (one query)
     */
    public Map<UUID, List<NewTask.Destination>> additionalDestinations(Collection<UUID> taskIds) {
        Map<UUID, List<NewTask.Destination>> all = new HashMap<>();
        if (taskIds.isEmpty()) {
            return all;
        }
        String marks = String.join(", ", Collections.nCopies(taskIds.size(), "?"));
        jdbc.query(
                "select task_id, endpoint_id, endpoint from task_destination where task_id in (" + marks
                        + ") order by task_id, position",
                rs -> {
                    all.computeIfAbsent(rs.getObject(1, UUID.class), id -> new ArrayList<>())
                            .add(new NewTask.Destination(rs.getObject(2, UUID.class), rs.getString(3)));
                },
                taskIds.toArray());
        return all;
    }

    /**
     * @return whether the task asked for {@code fail_on_quota_errors}: a full destination or an
     *     exhausted quota fails it at once instead of its waiting for space
     */
    public boolean failsOnQuotaErrors(UUID taskId) {
        List<Boolean> fail =
                jdbc.queryForList("select fail_on_quota_errors from task where id = ?", Boolean.class, taskId);
        return !fail.isEmpty() && Boolean.TRUE.equals(fail.get(0));
    }

    /**
     * @return true if the task asks for {@code delete_destination_extra} or for
     *     {@code ferry_verify_tree_digest} and that step has not run yet (the task must not end before)
     */
    public boolean mirrorPending(UUID taskId) {
        Integer pending = jdbc.queryForObject(
                "select count(*) from task where id = ? and (delete_destination_extra = TRUE"
                        + " or verify_tree_digest = TRUE) and mirror_state is null",
                Integer.class,
                taskId);
        return pending != null && pending > 0;
    }

    /**
     * Records that the destination extras were deleted (or their deletion skipped), so the task
     * may end.
     *
     * @return false if the task is no longer ACTIVE
     */
    public boolean markMirrored(UUID taskId, MirrorState state) {
        return jdbc.update("update task set mirror_state = ? where id = ? and status = ?", state.name(), taskId, ACTIVE)
                > 0;
    }

    /**
     * Sets the label and the deadline of an open (ACTIVE or INACTIVE) task.
     *
     * @return false if the task has ended
     */
    public boolean updateLabelAndDeadline(UUID taskId, String label, Instant deadline) {
        changed(taskId);
        return jdbc.update(
                        "update task set label = ?, deadline = ? where id = ? and status in ("
                                + TaskTransition.CANCEL.fromSql() + ")",
                        label,
                        Sql.time(deadline),
                        taskId)
                > 0;
    }

    // ---- events ---------------------------------------------------------------------------------

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

    // ---- status transitions ---------------------------------------------------------------------

    /**
     * {@link TaskTransition#SUSPEND}: an ACTIVE task waits until an endpoint is activated again
     * (Globus: "credentials expire" makes a task INACTIVE): {@code nice_status = NO_CREDENTIALS},
     * no lease and no back-off (no instance drives it until it resumes), and a
     * {@code NO_CREDENTIALS} event saying which endpoint and what to do. Its file rows stay as they
     * are.
     *
     * @param description the event's text
     * @return true if this call suspended the task (false if it was not ACTIVE)
     */
    public boolean suspend(UUID taskId, String description, Instant now) {
        changed(taskId);
        int changed = jdbc.update(
                "update task set status = ?, nice_status = ?, lease_owner = null, lease_expires = null,"
                        + " retry_after = null, consecutive_faults = 0, bytes_in_flight = 0"
                        + " where id = ? and status in (" + TaskTransition.SUSPEND.fromSql() + ")",
                TaskTransition.SUSPEND.to().name(),
                EventCode.NO_CREDENTIALS.name(),
                taskId);
        if (changed == 0) {
            return false;
        }
        insertEvent(taskId, EventCode.NO_CREDENTIALS, description, null, now);
        queueNotification(taskId, TaskStatus.INACTIVE, now);
        return true;
    }

    /**
     * {@link TaskTransition#RESUME}: an INACTIVE task is ACTIVE again ({@code nice_status =
     * Queued}) with a RESUMED event; the next tick leases, plans or dispatches it.
     *
     * @param description the event's text
     * @return true if this call resumed the task (false if it was not INACTIVE)
     */
    public boolean resume(UUID taskId, String description, Instant now) {
        changed(taskId);
        int changed = jdbc.update(
                "update task set status = ?, nice_status = ?, retry_after = null, consecutive_faults = 0"
                        + " where id = ? and status in (" + TaskTransition.RESUME.fromSql() + ")",
                TaskTransition.RESUME.to().name(),
                Task.NICE_QUEUED,
                taskId);
        if (changed == 0) {
            return false;
        }
        insertEvent(taskId, EventCode.RESUMED, description, null, now);
        return true;
    }

    /**
     * {@link TaskTransition#SUCCEED}: ends an ACTIVE task SUCCEEDED with its SUCCEEDED event (a
     * transfer's bytes and files, a delete task's files and directories deleted) and the owner's
     * e-mail in the outbox.
     *
     * @return true if this call ended the task
     */
    public boolean succeed(UUID taskId, Instant now) {
        if (!end(taskId, TaskTransition.SUCCEED, null, null, now)) {
            return false;
        }
        String details = jdbc.queryForObject(
                "select type, bytes_transferred, files_transferred, files, directories from task where id = ?",
                (rs, n) -> TaskType.DELETE.name().equals(rs.getString(1))
                        ? "{\"files_deleted\":" + rs.getLong(4) + ",\"directories_deleted\":" + rs.getLong(5) + "}"
                        : "{\"bytes_transferred\":" + rs.getLong(2) + ",\"files_transferred\":" + rs.getLong(3) + "}",
                taskId);
        insertEvent(taskId, EventCode.SUCCEEDED, "The task completed successfully", details, now);
        queueNotification(taskId, TaskStatus.SUCCEEDED, now);
        return true;
    }

    /**
     * {@link TaskTransition#FAIL}: ends an ACTIVE or INACTIVE task FAILED with the fatal fault (a
     * permanent fault, the deadline), its event and the owner's e-mail in the outbox. The first end
     * wins: a cancel that came first is kept.
     *
     * @param code the fatal error's code (an {@link EventCode} name; others are written UNKNOWN)
     * @param description the fatal error's description
     * @return true if this call ended the task
     */
    public boolean fail(UUID taskId, String code, String description, Instant now) {
        if (!end(taskId, TaskTransition.FAIL, code, description, now)) {
            return false;
        }
        EventCode event;
        try {
            event = EventCode.valueOf(code);
        } catch (IllegalArgumentException | NullPointerException e) {
            event = EventCode.UNKNOWN;
        }
        insertEvent(taskId, event, description, null, now);
        queueNotification(taskId, TaskStatus.FAILED, now);
        return true;
    }

    /**
     * {@link TaskTransition#CANCEL}: ends an ACTIVE or INACTIVE task FAILED with
     * {@code fatal_error.code = CANCELED} and a CANCELED event (no e-mail: the user asked).
     *
     * @param description the fatal error's description
     * @param admin the admin who cancelled another user's task, or null for the owner
     * @return true if this call ended the task
     */
    public boolean cancel(UUID taskId, String description, String admin, Instant now) {
        if (!end(taskId, TaskTransition.CANCEL, EventCode.CANCELED.name(), description, now)) {
            return false;
        }
        if (admin != null) {
            jdbc.update("update task set canceled_by_admin = TRUE where id = ?", taskId);
        }
        insertEvent(taskId, EventCode.CANCELED, description, admin == null ? null : "by " + admin, now);
        return true;
    }

    private boolean end(UUID taskId, TaskTransition transition, String code, String description, Instant now) {
        changed(taskId);
        return jdbc.update(
                        "update task set status = ?, nice_status = null, completion_time = ?, fatal_error_code = ?,"
                                + " fatal_error_description = ?, bytes_in_flight = 0, lease_owner = null,"
                                + " lease_expires = null where id = ? and status in (" + transition.fromSql() + ")",
                        transition.to().name(),
                        Sql.time(now),
                        code,
                        Sql.cut(description, 4000),
                        taskId)
                > 0;
    }

    /**
     * Puts the owner's e-mail about the task's new status in the outbox ({@code task_notification}),
     * in the caller's transaction: only if the task's {@code notify_on_*} flag for it is set, the
     * owner has an address, and no message of that kind was queued for the task before (one per
     * task and kind). {@code org.ferry.scheduler.notify} sends it after the commit.
     *
     * @param kind SUCCEEDED, FAILED or INACTIVE
     */
    private void queueNotification(UUID taskId, TaskStatus kind, Instant now) {
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

    // ---- queries of the engine ------------------------------------------------------------------

    /** @return INACTIVE tasks (of both types) whose deadline has passed */
    public List<UUID> inactivePastDeadline(Instant now) {
        return jdbc.queryForList(
                "select id from task where status = ? and deadline <= ?",
                UUID.class,
                TaskStatus.INACTIVE.name(),
                Sql.time(now));
    }

    /** @return the tasks of the type in the status, oldest first */
    public List<UUID> inStatus(TaskType type, TaskStatus status) {
        return jdbc.queryForList(
                "select id from task where status = ? and type = ? order by request_time",
                UUID.class,
                status.name(),
                type.name());
    }

    /**
     * @return the owner's tasks in the status that use the endpoint (as source or destination),
     *     oldest first
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
}
