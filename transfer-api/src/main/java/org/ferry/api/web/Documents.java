package org.ferry.api.web;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.SyncLevel;
import org.ferry.api.domain.Task;
import org.ferry.api.domain.TaskEvent;
import org.ferry.api.domain.TaskStatus;
import org.ferry.mover.protocol.FileInfo;

/**
 * Builds the JSON documents of rest-api.md with the Globus field names, in a stable order.
 * Maps rather than annotated records because the Globus names mix {@code DATA_TYPE} with
 * snake_case and several fields are computed.
 */
public final class Documents {

    private Documents() {}

    /** @return the endpoint document (never the password) */
    public static Map<String, Object> endpoint(Endpoint endpoint) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("DATA_TYPE", "endpoint");
        doc.put("id", endpoint.getId().toString());
        doc.put("canonical_name", endpoint.getCanonicalName());
        doc.put("display_name", endpoint.getDisplayName());
        doc.put("owner_string", endpoint.getOwnerName());
        doc.put("url", endpoint.getUrl());
        doc.put("username", endpoint.getUsername());
        return doc;
    }

    /**
     * @param task the task
     * @param now the time rates are computed against while the task is ACTIVE
     * @return the task document
     */
    public static Map<String, Object> task(Task task, Instant now) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("DATA_TYPE", "task");
        doc.put("task_id", task.getId().toString());
        doc.put("type", task.getType());
        doc.put("status", task.getStatus().name());
        doc.put("nice_status", task.getNiceStatus());
        doc.put("is_ok", task.isOk());
        doc.put("label", task.getLabel());
        doc.put("owner_string", task.getOwnerName());
        doc.put("request_time", ApiTime.format(task.getRequestTime()));
        doc.put("completion_time", ApiTime.format(task.getCompletionTime()));
        doc.put("deadline", ApiTime.format(task.getDeadline()));
        doc.put("source_endpoint", task.getSourceEndpoint());
        doc.put("source_endpoint_id", task.getSourceEndpointId().toString());
        doc.put("destination_endpoint", task.getDestinationEndpoint());
        doc.put("destination_endpoint_id", task.getDestinationEndpointId().toString());
        SyncLevel syncLevel = task.getSyncLevel();
        doc.put("sync_level", syncLevel == null ? null : syncLevel.level());
        doc.put("verify_checksum", task.isVerifyChecksum());
        doc.put("skip_source_errors", task.isSkipSourceErrors());
        doc.put("files", task.getFiles());
        doc.put("directories", task.getDirectories());
        doc.put("files_transferred", task.getFilesTransferred());
        doc.put("files_skipped", task.getFilesSkipped());
        boolean active = task.getStatus() == TaskStatus.ACTIVE;
        // while ACTIVE, the bytes of files still in flight count too (progress of big files)
        doc.put("bytes_transferred", task.getBytesTransferred() + (active ? task.getBytesInFlight() : 0));
        doc.put("effective_bytes_per_second", effectiveBytesPerSecond(task, now));
        doc.put("faults", task.getFaults());
        doc.put("subtasks_total", task.getSubtasksTotal());
        long open = Math.max(
                0,
                task.getSubtasksTotal()
                        - task.getSubtasksSucceeded()
                        - task.getSubtasksFailed()
                        - task.getSubtasksSkippedErrors());
        doc.put("subtasks_pending", active ? open : 0);
        doc.put("subtasks_succeeded", task.getSubtasksSucceeded());
        doc.put("subtasks_failed", task.getSubtasksFailed());
        doc.put("subtasks_skipped_errors", task.getSubtasksSkippedErrors());
        // subtasks left open by a cancel are reported as cancelled, as Globus does
        doc.put("subtasks_canceled", active ? 0 : open);
        if (task.getFatalErrorCode() == null) {
            doc.put("fatal_error", null);
        } else {
            Map<String, Object> fatal = new LinkedHashMap<>();
            fatal.put("code", task.getFatalErrorCode());
            fatal.put("description", task.getFatalErrorDescription());
            doc.put("fatal_error", fatal);
        }
        return doc;
    }

    private static long effectiveBytesPerSecond(Task task, Instant now) {
        Instant start = task.getStartTime() != null ? task.getStartTime() : task.getRequestTime();
        Instant end = task.getCompletionTime() != null ? task.getCompletionTime() : now;
        long millis = Math.max(1, Duration.between(start, end).toMillis());
        return task.getBytesTransferred() * 1000 / millis;
    }

    /** @return the event document */
    public static Map<String, Object> event(TaskEvent event) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("DATA_TYPE", "event");
        doc.put("code", event.getCode());
        doc.put("is_error", event.isError());
        doc.put("description", event.getDescription());
        doc.put("details", event.getDetails());
        doc.put("time", ApiTime.format(event.getTime()));
        return doc;
    }

    /** @return the file document of one listing entry */
    public static Map<String, Object> file(FileInfo info) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("DATA_TYPE", "file");
        doc.put("name", info.name());
        doc.put(
                "type",
                switch (info.type()) {
                    case DIRECTORY -> "dir";
                    case SYMLINK -> "link";
                    default -> "file";
                });
        doc.put("size", info.sizeBytes());
        doc.put("last_modified", ApiTime.format(info.modified()));
        doc.put("permissions", info.unixMode() < 0 ? null : String.format("%04o", info.unixMode()));
        return doc;
    }

    /**
     * @return a {@code result} document, e.g. code {@code Deleted}
     */
    public static Map<String, Object> result(String code, String message) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("DATA_TYPE", "result");
        doc.put("code", code);
        doc.put("message", message);
        return doc;
    }
}
