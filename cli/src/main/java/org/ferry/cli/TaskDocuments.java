package org.ferry.cli;

import org.ferry.cli.output.Json;
import org.ferry.cli.output.Record;
import tools.jackson.databind.JsonNode;

/** Turns task documents of the API into printable records. */
final class TaskDocuments {
    private TaskDocuments() {}

    /**
     * The fields of one task document, for {@code ferry status TASK_ID}.
     *
     * @param task a task document
     * @return a record of its fields; the fatal error as {@code CODE: description}
     */
    static Record record(JsonNode task) {
        JsonNode fatal = task.path("fatal_error");
        String fatalText = fatal.isObject() ? Json.text(fatal, "code") + ": " + Json.text(fatal, "description") : "";
        return new Record()
                .field("Task ID", Json.text(task, "task_id"))
                .field("Type", Json.text(task, "type"))
                .field("Status", Json.text(task, "status"))
                .field("Nice Status", Json.text(task, "nice_status"))
                .field("Nice Status Details", Json.text(task, "nice_status_details"))
                .field("Label", Json.text(task, "label"))
                .field("Owner", Json.text(task, "owner_string"))
                .field("Source Endpoint", Json.text(task, "source_endpoint"))
                .field("Destination Endpoint", Json.text(task, "destination_endpoint"))
                .field("Request Time", Json.text(task, "request_time"))
                .field("Completion Time", Json.text(task, "completion_time"))
                .field("Deadline", Json.text(task, "deadline"))
                .field("Sync Level", Json.text(task, "sync_level"))
                .field("Verify Checksum", Json.text(task, "verify_checksum"))
                .field("Files", Json.text(task, "files"))
                .field("Directories", Json.text(task, "directories"))
                .field("Files Transferred", Json.text(task, "files_transferred"))
                .field("Files Skipped", Json.text(task, "files_skipped"))
                .field("Bytes Transferred", Json.text(task, "bytes_transferred"))
                .field("Bytes Per Second", Json.text(task, "effective_bytes_per_second"))
                .field("Faults", Json.text(task, "faults"))
                .field("Subtasks Total", Json.text(task, "subtasks_total"))
                .field("Subtasks Pending", Json.text(task, "subtasks_pending"))
                .field("Subtasks Succeeded", Json.text(task, "subtasks_succeeded"))
                .field("Subtasks Failed", Json.text(task, "subtasks_failed"))
                .field("Fatal Error", fatalText);
    }

    /**
     * Every field of a task document, for {@code ferry details}.
     *
     * @param task a task document
     * @return the status record plus the options and remaining counters
     */
    static Record details(JsonNode task) {
        return record(task)
                .field("Is OK", Json.text(task, "is_ok"))
                .field("Is Paused", Json.text(task, "is_paused"))
                .field("Preserve Timestamp", Json.text(task, "preserve_timestamp"))
                .field("Encrypt Data", Json.text(task, "encrypt_data"))
                .field("Skip Source Errors", Json.text(task, "skip_source_errors"))
                .field("Fail On Quota Errors", Json.text(task, "fail_on_quota_errors"))
                .field("Delete Destination Extra", Json.text(task, "delete_destination_extra"))
                .field("Subtasks Retrying", Json.text(task, "subtasks_retrying"))
                .field("Subtasks Canceled", Json.text(task, "subtasks_canceled"))
                .field("Subtasks Expired", Json.text(task, "subtasks_expired"))
                .field("Subtasks Skipped Errors", Json.text(task, "subtasks_skipped_errors"))
                .field("Canceled By Admin", Json.text(task, "canceled_by_admin"));
    }
}
