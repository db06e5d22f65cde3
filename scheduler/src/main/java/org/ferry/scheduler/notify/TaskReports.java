package org.ferry.scheduler.notify;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/** Reads a {@link TaskReport} from a task's rows (task, owner, items, failed files, events). */
@Component
public class TaskReports {

    /** How many failed files a message names. */
    static final int FAILED_FILES_SHOWN = 5;

    private final JdbcTemplate jdbc;

    /** @param jdbc the database */
    public TaskReports(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * @param kind SUCCEEDED, FAILED or INACTIVE
     * @return the report, or empty if the task is gone or its owner has no address any more
     */
    public Optional<TaskReport> read(UUID taskId, String kind, Instant now) {
        List<TaskReport> rows = jdbc.query(
                "select t.owner_name, u.email, t.label, t.source_endpoint, t.destination_endpoint, t.files,"
                        + " t.files_transferred, t.files_skipped, t.bytes_transferred, t.request_time, t.start_time,"
                        + " t.completion_time, t.deadline, t.fatal_error_code, t.fatal_error_description"
                        + " from task t join ferry_user u on u.name = t.owner_name where t.id = ?",
                (rs, n) -> {
                    Instant completion = instant(rs.getTimestamp(12));
                    boolean inactive = "INACTIVE".equals(kind);
                    return new TaskReport(
                            taskId,
                            kind,
                            rs.getString(1),
                            rs.getString(2),
                            rs.getString(3),
                            rs.getString(4),
                            rs.getString(5),
                            List.of(),
                            rs.getLong(6),
                            rs.getLong(7),
                            rs.getLong(8),
                            rs.getLong(9),
                            instant(rs.getTimestamp(10)),
                            instant(rs.getTimestamp(11)),
                            inactive || completion == null ? now : completion,
                            instant(rs.getTimestamp(13)),
                            rs.getString(14),
                            rs.getString(15),
                            List.of(),
                            0);
                },
                taskId);
        if (rows.isEmpty() || rows.get(0).email() == null) {
            return Optional.empty();
        }
        TaskReport base = rows.get(0);
        List<String> items = jdbc.query(
                "select source_path, destination_path, recursive from transfer_item where task_id = ?"
                        + " order by item_index",
                (rs, n) -> rs.getString(1) + " -> " + rs.getString(2) + (rs.getBoolean(3) ? " (recursive)" : ""),
                taskId);
        List<String> failed = jdbc.query(
                "select source_path, fault_code, fault_description from transfer_file where task_id = ? and state = ?"
                        + " order by id fetch first " + FAILED_FILES_SHOWN + " rows only",
                (rs, n) -> rs.getString(1) + ": "
                        + (rs.getString(2) == null ? "failed" : rs.getString(2))
                        + (rs.getString(3) == null ? "" : " (" + rs.getString(3) + ")"),
                taskId,
                "FAILED");
        Long failedCount = jdbc.queryForObject(
                "select count(*) from transfer_file where task_id = ? and state = ?", Long.class, taskId, "FAILED");
        String description = base.errorDescription();
        if ("INACTIVE".equals(kind)) {
            List<String> why = jdbc.queryForList(
                    "select description from task_event where task_id = ? and code = ? order by event_time desc",
                    String.class,
                    taskId,
                    "NO_CREDENTIALS");
            description = why.isEmpty() ? "An endpoint's credential is missing or expired." : why.get(0);
        }
        return Optional.of(new TaskReport(
                taskId,
                kind,
                base.owner(),
                base.email(),
                base.label(),
                base.sourceEndpoint(),
                base.destinationEndpoint(),
                items,
                base.files(),
                base.filesTransferred(),
                base.filesSkipped(),
                base.bytesTransferred(),
                base.requestTime(),
                base.startTime(),
                base.endTime(),
                base.deadline(),
                base.errorCode(),
                description,
                failed,
                failedCount == null ? 0 : failedCount));
    }

    private static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}
