package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The body of {@code POST /delete} (service-semantics b.2 "Delete document").
 *
 * @param dataType {@code delete} or absent
 * @param submissionId a UUID from {@code GET /submission_id}, or null to make one
 * @param endpoint endpoint id or canonical name
 * @param label at most 128 characters
 * @param deadline ISO-8601; default 24 hours after submission
 * @param recursive required when a path is a directory
 * @param ignoreMissing a missing path is no error
 * @param interpretGlobs not supported yet
 * @param notifyOnSucceeded only false or absent: a delete task sends no e-mail (400 naming the field)
 * @param notifyOnFailed only false or absent: a delete task sends no e-mail (400 naming the field)
 * @param notifyOnInactive only false or absent: a delete task sends no e-mail (400 naming the field)
 * @param localUser not supported (GCSv5 identity mapping)
 * @param skipActivationCheck accepted and ignored, as Globus does
 * @param items the paths, at least one
 */
public record DeleteRequest(
        @JsonProperty("DATA_TYPE") String dataType,
        @JsonProperty("submission_id") String submissionId,
        String endpoint,
        String label,
        String deadline,
        Boolean recursive,
        @JsonProperty("ignore_missing") Boolean ignoreMissing,
        @JsonProperty("interpret_globs") Boolean interpretGlobs,
        @JsonProperty("notify_on_succeeded") Boolean notifyOnSucceeded,
        @JsonProperty("notify_on_failed") Boolean notifyOnFailed,
        @JsonProperty("notify_on_inactive") Boolean notifyOnInactive,
        @JsonProperty("local_user") String localUser,
        @JsonProperty("skip_activation_check") Boolean skipActivationCheck,
        @JsonProperty("DATA") List<DeleteItem> items) {

    /**
     * One {@code DATA[]} entry.
     *
     * @param dataType {@code delete_item}
     * @param path absolute path of a file or directory
     */
    public record DeleteItem(@JsonProperty("DATA_TYPE") String dataType, String path) {}
}
