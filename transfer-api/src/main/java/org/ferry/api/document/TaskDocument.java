package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * A task (service-semantics b.4), with the Globus field names. A DELETE task has no
 * destination endpoint.
 *
 * @param dataType {@code task}
 * @param taskId the task's id
 * @param type {@code TRANSFER} or {@code DELETE}
 * @param status {@code ACTIVE}, {@code INACTIVE}, {@code SUCCEEDED} or {@code FAILED}
 * @param niceStatus {@code Queued}, {@code OK}, a fault code, or null once ended
 * @param isOk false while the latest news of the ACTIVE task is a fault (an endpoint is down and
 *     the task retries until its deadline); null once ended
 * @param niceStatusDetails while an ACTIVE task waits, why: the limit it is queued behind
 *     ({@code nice_status} {@code QUEUED_USER_LIMIT}, {@code QUEUED_PAIR_LIMIT},
 *     {@code QUEUED_NO_SLOT}), or the fault it backs off after and until when; else null
 * @param niceStatusExpiresIn seconds until a back-off ends and the task is tried again; null
 *     while it does not back off
 * @param isPaused always false (no pause rules yet)
 * @param label the label or null
 * @param ownerString the owner's user name
 * @param ownerId the owner's account id
 * @param username the owner's user name (deprecated Globus field)
 * @param command {@code API 0.10}
 * @param requestTime submission time
 * @param completionTime end time, null while ACTIVE
 * @param deadline the deadline or null
 * @param sourceEndpoint source (or deleted-from) endpoint's canonical name
 * @param sourceEndpointId its id
 * @param sourceEndpointDisplayName its display name
 * @param destinationEndpoint destination endpoint's canonical name, null for DELETE
 * @param destinationEndpointId its id, null for DELETE
 * @param destinationEndpointDisplayName its display name, null for DELETE
 * @param syncLevel 0-3 or null
 * @param verifyChecksum whether checksums are compared
 * @param preserveTimestamp whether each destination file gets its source's modification time
 * @param encryptData whether every data channel of the task is encrypted (PROT P)
 * @param skipSourceErrors whether missing or unreadable source paths are skipped (listed in
 *     {@code skipped_errors}) instead of failing the task
 * @param failOnQuotaErrors false (not supported yet)
 * @param deleteDestinationExtra whether destination extras under recursive items are deleted after the copy
 * @param filterRules the filter rules in order, or null
 * @param recursiveSymlinks {@code ignore}
 * @param notifyOnSucceeded whether the owner is e-mailed when the task succeeds (Ferry's addition:
 *     the request's {@code notify_on_succeeded}, so a client can read back what it asked for)
 * @param notifyOnFailed whether the owner is e-mailed when the task fails
 * @param notifyOnInactive whether the owner is e-mailed when the task goes INACTIVE
 * @param files files found
 * @param directories directories found
 * @param symlinks 0
 * @param filesTransferred files moved (DELETE: files deleted)
 * @param filesSkipped files the sync level found current
 * @param bytesTransferred bytes moved (while ACTIVE, with the bytes of files still in flight)
 * @param bytesChecksummed 0
 * @param effectiveBytesPerSecond bytes moved per second of work
 * @param faults failed attempts
 * @param subtasksTotal one per file
 * @param subtasksPending not done yet
 * @param subtasksRetrying 0
 * @param subtasksSucceeded transferred or skipped by the sync level
 * @param subtasksFailed failed by a permanent fault
 * @param subtasksCanceled left open by a cancel
 * @param subtasksExpired 0
 * @param subtasksSkippedErrors source paths skipped under {@code skip_source_errors}
 * @param fatalError code and description when FAILED, else null
 * @param canceledByAdmin whether an admin (not the owner) cancelled it
 * @param canceledByAdminMessage null
 * @param historyDeleted false
 * @param verifyTreeDigest Ferry's extension {@code ferry_verify_tree_digest}: whether the service
 *     compares one digest of each recursive item's tree on the two servers after every file
 *     arrived, as the transfer document asked
 * @param destinations Ferry's multicast extension, only in {@code GET /task/{id}} of a task with
 *     {@code ferry_additional_destination_endpoints}: every destination, the destination endpoint
 *     first, each with the files and bytes checked there; absent otherwise
 */
public record TaskDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        @JsonProperty("task_id") String taskId,
        String type,
        String status,
        @JsonProperty("nice_status") String niceStatus,
        @JsonProperty("is_ok") Boolean isOk,
        @JsonProperty("nice_status_details") String niceStatusDetails,
        @JsonProperty("nice_status_expires_in") Long niceStatusExpiresIn,
        @JsonProperty("is_paused") boolean isPaused,
        String label,
        @JsonProperty("owner_string") String ownerString,
        @JsonProperty("owner_id") String ownerId,
        String username,
        String command,
        @JsonProperty("request_time") String requestTime,
        @JsonProperty("completion_time") String completionTime,
        String deadline,
        @JsonProperty("source_endpoint") String sourceEndpoint,
        @JsonProperty("source_endpoint_id") String sourceEndpointId,
        @JsonProperty("source_endpoint_display_name") String sourceEndpointDisplayName,
        @JsonProperty("destination_endpoint") String destinationEndpoint,
        @JsonProperty("destination_endpoint_id") String destinationEndpointId,
        @JsonProperty("destination_endpoint_display_name") String destinationEndpointDisplayName,
        @JsonProperty("sync_level") Integer syncLevel,
        @JsonProperty("verify_checksum") boolean verifyChecksum,
        @JsonProperty("preserve_timestamp") boolean preserveTimestamp,
        @JsonProperty("encrypt_data") boolean encryptData,
        @JsonProperty("skip_source_errors") boolean skipSourceErrors,
        @JsonProperty("fail_on_quota_errors") boolean failOnQuotaErrors,
        @JsonProperty("delete_destination_extra") boolean deleteDestinationExtra,
        @JsonProperty("filter_rules") List<TransferRequest.FilterRule> filterRules,
        @JsonProperty("recursive_symlinks") String recursiveSymlinks,
        @JsonProperty("notify_on_succeeded") boolean notifyOnSucceeded,
        @JsonProperty("notify_on_failed") boolean notifyOnFailed,
        @JsonProperty("notify_on_inactive") boolean notifyOnInactive,
        long files,
        long directories,
        long symlinks,
        @JsonProperty("files_transferred") long filesTransferred,
        @JsonProperty("files_skipped") long filesSkipped,
        @JsonProperty("bytes_transferred") long bytesTransferred,
        @JsonProperty("bytes_checksummed") long bytesChecksummed,
        @JsonProperty("effective_bytes_per_second") long effectiveBytesPerSecond,
        long faults,
        @JsonProperty("subtasks_total") long subtasksTotal,
        @JsonProperty("subtasks_pending") long subtasksPending,
        @JsonProperty("subtasks_retrying") long subtasksRetrying,
        @JsonProperty("subtasks_succeeded") long subtasksSucceeded,
        @JsonProperty("subtasks_failed") long subtasksFailed,
        @JsonProperty("subtasks_canceled") long subtasksCanceled,
        @JsonProperty("subtasks_expired") long subtasksExpired,
        @JsonProperty("subtasks_skipped_errors") long subtasksSkippedErrors,
        @JsonProperty("fatal_error") FatalError fatalError,
        @JsonProperty("canceled_by_admin") boolean canceledByAdmin,
        @JsonProperty("canceled_by_admin_message") String canceledByAdminMessage,
        @JsonProperty("history_deleted") boolean historyDeleted,
        @JsonProperty("ferry_verify_tree_digest") boolean verifyTreeDigest,

        @JsonProperty("ferry_destinations") @JsonInclude(JsonInclude.Include.NON_NULL)
        List<Destination> destinations) {

    /**
     * One destination of a multicast task ({@code DATA_TYPE} {@code ferry_destination}). A file
     * counts for a destination once its size (and checksum with {@code verify_checksum}) was
     * checked there; the mover checks a file at every destination before it reports it arrived,
     * so a file missing anywhere counts nowhere and is retried.
     *
     * @param dataType {@code ferry_destination}
     * @param endpointId the endpoint's id
     * @param displayName its canonical name at submission
     * @param filesTransferred files checked there
     * @param bytesTransferred their bytes
     */
    public record Destination(
            @JsonProperty("DATA_TYPE") String dataType,
            @JsonProperty("endpoint_id") String endpointId,
            @JsonProperty("display_name") String displayName,
            @JsonProperty("files_transferred") long filesTransferred,
            @JsonProperty("bytes_transferred") long bytesTransferred) {}

    /**
     * Why a task FAILED.
     *
     * @param code e.g. {@code CANCELED}, {@code FILE_NOT_FOUND}
     * @param description for people
     */
    public record FatalError(String code, String description) {}
}
