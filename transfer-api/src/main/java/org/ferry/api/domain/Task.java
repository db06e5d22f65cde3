package org.ferry.api.domain;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.UUID;
import org.hibernate.annotations.Immutable;

/**
 * A task (a transfer or a delete): what was asked (endpoints, options) and how far it got
 * (counters, status). A read-only view for the API's queries: every write goes through
 * {@link org.ferry.api.store.TaskStore}, as conditional SQL updates, because several movers
 * report on one task at once and its status changes only as the transition table says.
 */
@Entity
@Immutable
@Table(name = "task")
public class Task {

    /** {@code nice_status} of a task waiting for its first chunk. */
    public static final String NICE_QUEUED = "Queued";
    /** {@code nice_status} of a task that is working without recent faults. */
    public static final String NICE_OK = "OK";

    /** {@code nice_status} of a task waiting behind its owner's limit of chunks moving at once. */
    public static final String NICE_QUEUED_USER_LIMIT = "QUEUED_USER_LIMIT";

    /** {@code nice_status} of a task waiting behind its endpoint pair's limit of chunks moving at once. */
    public static final String NICE_QUEUED_PAIR_LIMIT = "QUEUED_PAIR_LIMIT";

    /** {@code nice_status} of a task waiting for a free mover slot (every slot busy with other tasks). */
    public static final String NICE_QUEUED_NO_SLOT = "QUEUED_NO_SLOT";

    @Id
    private UUID id;

    @Column(name = "submission_id", nullable = false, unique = true)
    private String submissionId;

    @Column(name = "owner_name", nullable = false)
    private String ownerName;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    private TaskType type;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    private TaskStatus status;

    @Column(name = "nice_status")
    private String niceStatus;

    private String label;

    @Column(name = "request_time", nullable = false)
    private Instant requestTime;

    @Column(name = "start_time")
    private Instant startTime;

    @Column(name = "completion_time")
    private Instant completionTime;

    private Instant deadline;

    @Column(name = "source_endpoint_id", nullable = false)
    private UUID sourceEndpointId;

    @Column(name = "source_endpoint", nullable = false)
    private String sourceEndpoint;

    @Column(name = "destination_endpoint_id")
    private UUID destinationEndpointId;

    @Column(name = "destination_endpoint")
    private String destinationEndpoint;

    @Column(name = "sync_level")
    private Integer syncLevel;

    @Column(name = "verify_checksum", nullable = false)
    private boolean verifyChecksum;

    @Column(name = "encrypt_data", nullable = false)
    private boolean encryptData;

    @Column(name = "preserve_timestamp", nullable = false)
    private boolean preserveTimestamp;

    @Column(nullable = false)
    private long files;

    @Column(nullable = false)
    private long directories;

    @Column(name = "files_transferred", nullable = false)
    private long filesTransferred;

    @Column(name = "files_skipped", nullable = false)
    private long filesSkipped;

    @Column(name = "bytes_transferred", nullable = false)
    private long bytesTransferred;

    @Column(nullable = false)
    private long faults;

    @Column(name = "subtasks_total", nullable = false)
    private long subtasksTotal;

    @Column(name = "subtasks_succeeded", nullable = false)
    private long subtasksSucceeded;

    @Column(name = "subtasks_failed", nullable = false)
    private long subtasksFailed;

    @Column(name = "skip_source_errors", nullable = false)
    private boolean skipSourceErrors;

    @Column(name = "fail_on_quota_errors", nullable = false)
    private boolean failOnQuotaErrors;

    @Column(name = "checksum_algorithm", nullable = false)
    private String checksumAlgorithm;

    @Column(name = "delete_destination_extra", nullable = false)
    private boolean deleteDestinationExtra;

    @Column(name = "verify_tree_digest", nullable = false)
    private boolean verifyTreeDigest;

    @Column(name = "filter_rules")
    private String filterRules;

    @Column(name = "subtasks_skipped_errors", nullable = false)
    private long subtasksSkippedErrors;

    @Enumerated(EnumType.STRING)
    @Column(name = "plan_state", nullable = false)
    private PlanState planState;

    @Column(name = "lease_owner")
    private String leaseOwner;

    @Column(name = "lease_expires")
    private Instant leaseExpires;

    @Column(name = "bytes_in_flight", nullable = false)
    private long bytesInFlight;

    @Column(name = "retry_after")
    private Instant retryAfter;

    @Column(name = "consecutive_faults", nullable = false)
    private int consecutiveFaults;

    @Column(name = "fatal_error_code")
    private String fatalErrorCode;

    @Column(name = "fatal_error_description")
    private String fatalErrorDescription;

    @Column(name = "delete_recursive", nullable = false)
    private boolean deleteRecursive;

    @Column(name = "ignore_missing", nullable = false)
    private boolean ignoreMissing;

    @Column(name = "canceled_by_admin", nullable = false)
    private boolean canceledByAdmin;

    // Globus: each notify_on_* defaults to true
    @Column(name = "notify_on_succeeded", nullable = false)
    private boolean notifyOnSucceeded = true;

    @Column(name = "notify_on_failed", nullable = false)
    private boolean notifyOnFailed = true;

    @Column(name = "notify_on_inactive", nullable = false)
    private boolean notifyOnInactive = true;

    /** For JPA. */
    protected Task() {}

    /** The columns {@link #read} reads, in its order: {@code select COLUMNS from task ...}. */
    public static final String COLUMNS =
            "id, submission_id, owner_name, type, status, nice_status, label, request_time, "
                    + "start_time, completion_time, deadline, source_endpoint_id, source_endpoint, "
                    + "destination_endpoint_id, destination_endpoint, sync_level, verify_checksum, "
                    + "encrypt_data, preserve_timestamp, files, directories, files_transferred, "
                    + "files_skipped, bytes_transferred, faults, subtasks_total, subtasks_succeeded, "
                    + "subtasks_failed, skip_source_errors, fail_on_quota_errors, checksum_algorithm, "
                    + "delete_destination_extra, verify_tree_digest, filter_rules, subtasks_skipped_errors, "
                    + "plan_state, lease_owner, lease_expires, bytes_in_flight, retry_after, "
                    + "consecutive_faults, fatal_error_code, fatal_error_description, delete_recursive, "
                    + "ignore_missing, canceled_by_admin, notify_on_succeeded, notify_on_failed, "
                    + "notify_on_inactive";

    /**
     * A task from a row of {@code select} {@link #COLUMNS} {@code from task} read by plain SQL (the
     * task list, which is polled often enough that Hibernate's per-query work showed in profiles):
     * every mapped column, read by position, so the task equals the one JPA would load.
     *
     * @param row a result set positioned on a row whose first columns are {@link #COLUMNS}
     * @return the task
     * @throws SQLException if a column is of another type
     */
    public static Task read(ResultSet row) throws SQLException {
        Task task = new Task();
        task.id = row.getObject(1, UUID.class);
        task.submissionId = row.getString(2);
        task.ownerName = row.getString(3);
        task.type = TaskType.valueOf(row.getString(4));
        task.status = TaskStatus.valueOf(row.getString(5));
        task.niceStatus = row.getString(6);
        task.label = row.getString(7);
        task.requestTime = instant(row.getTimestamp(8));
        task.startTime = instant(row.getTimestamp(9));
        task.completionTime = instant(row.getTimestamp(10));
        task.deadline = instant(row.getTimestamp(11));
        task.sourceEndpointId = row.getObject(12, UUID.class);
        task.sourceEndpoint = row.getString(13);
        task.destinationEndpointId = row.getObject(14, UUID.class);
        task.destinationEndpoint = row.getString(15);
        task.syncLevel = row.getObject(16, Integer.class);
        task.verifyChecksum = row.getBoolean(17);
        task.encryptData = row.getBoolean(18);
        task.preserveTimestamp = row.getBoolean(19);
        task.files = row.getLong(20);
        task.directories = row.getLong(21);
        task.filesTransferred = row.getLong(22);
        task.filesSkipped = row.getLong(23);
        task.bytesTransferred = row.getLong(24);
        task.faults = row.getLong(25);
        task.subtasksTotal = row.getLong(26);
        task.subtasksSucceeded = row.getLong(27);
        task.subtasksFailed = row.getLong(28);
        task.skipSourceErrors = row.getBoolean(29);
        task.failOnQuotaErrors = row.getBoolean(30);
        task.checksumAlgorithm = row.getString(31);
        task.deleteDestinationExtra = row.getBoolean(32);
        task.verifyTreeDigest = row.getBoolean(33);
        task.filterRules = row.getString(34);
        task.subtasksSkippedErrors = row.getLong(35);
        task.planState = PlanState.valueOf(row.getString(36));
        task.leaseOwner = row.getString(37);
        task.leaseExpires = instant(row.getTimestamp(38));
        task.bytesInFlight = row.getLong(39);
        task.retryAfter = instant(row.getTimestamp(40));
        task.consecutiveFaults = row.getInt(41);
        task.fatalErrorCode = row.getString(42);
        task.fatalErrorDescription = row.getString(43);
        task.deleteRecursive = row.getBoolean(44);
        task.ignoreMissing = row.getBoolean(45);
        task.canceledByAdmin = row.getBoolean(46);
        task.notifyOnSucceeded = row.getBoolean(47);
        task.notifyOnFailed = row.getBoolean(48);
        task.notifyOnInactive = row.getBoolean(49);
        return task;
    }

    private static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }

    /** @return the task id */
    public UUID getId() {
        return id;
    }

    /** @return the submission id */
    public String getSubmissionId() {
        return submissionId;
    }

    /** @return the owner's user name */
    public String getOwnerName() {
        return ownerName;
    }

    /** @return TRANSFER or DELETE */
    public TaskType getType() {
        return type;
    }

    /** @return the status */
    public TaskStatus getStatus() {
        return status;
    }

    /** @return {@code Queued}, {@code OK}, a fault code, or null once ended */
    public String getNiceStatus() {
        return niceStatus;
    }

    /** @return the label or null */
    public String getLabel() {
        return label;
    }

    /** @return when the task was submitted */
    public Instant getRequestTime() {
        return requestTime;
    }

    /** @return when work first began, or null while queued */
    public Instant getStartTime() {
        return startTime;
    }

    /** @return when the task ended, or null while ACTIVE */
    public Instant getCompletionTime() {
        return completionTime;
    }

    /** @return the deadline or null */
    public Instant getDeadline() {
        return deadline;
    }

    /** @return the source endpoint id */
    public UUID getSourceEndpointId() {
        return sourceEndpointId;
    }

    /** @return the source endpoint's canonical name at submission */
    public String getSourceEndpoint() {
        return sourceEndpoint;
    }

    /** @return the destination endpoint id, null for a DELETE task */
    public UUID getDestinationEndpointId() {
        return destinationEndpointId;
    }

    /** @return the destination endpoint's canonical name at submission, null for a DELETE task */
    public String getDestinationEndpoint() {
        return destinationEndpoint;
    }

    /** @return the sync level, or null to always copy */
    public SyncLevel getSyncLevel() {
        return syncLevel == null ? null : SyncLevel.ofLevel(syncLevel);
    }

    /** @return whether checksums are compared after each file */
    public boolean isVerifyChecksum() {
        return verifyChecksum;
    }

    /** @return whether every data channel of the task is encrypted (PROT P) */
    public boolean isEncryptData() {
        return encryptData;
    }

    /** @return regular files found in the task's items */
    public long getFiles() {
        return files;
    }

    /** @return directories found in the task's recursive items */
    public long getDirectories() {
        return directories;
    }

    /** @return files that arrived */
    public long getFilesTransferred() {
        return filesTransferred;
    }

    /** @return files not copied because the sync level found them current */
    public long getFilesSkipped() {
        return filesSkipped;
    }

    /** @return bytes moved so far (partial bytes of failed attempts are taken back) */
    public long getBytesTransferred() {
        return bytesTransferred;
    }

    /** @return faults (failed attempts) so far */
    public long getFaults() {
        return faults;
    }

    /** @return subtasks (one per file) */
    public long getSubtasksTotal() {
        return subtasksTotal;
    }

    /** @return subtasks done (transferred, or skipped by the sync level) */
    public long getSubtasksSucceeded() {
        return subtasksSucceeded;
    }

    /** @return subtasks out of attempts */
    public long getSubtasksFailed() {
        return subtasksFailed;
    }

    /** @return whether missing or unreadable source paths are skipped rather than fatal */
    public boolean isSkipSourceErrors() {
        return skipSourceErrors;
    }

    /**
     * @return whether a full destination or an exhausted quota fails the task at once, rather than
     *     the task waiting and retrying until its deadline
     */
    public boolean isFailOnQuotaErrors() {
        return failOnQuotaErrors;
    }

    /**
     * @return what {@code verify_checksum}, sync level 3 and the items' {@code external_checksum}
     *     compare: a CKSM algorithm name ({@code MD5} unless the submission named another)
     */
    public String getChecksumAlgorithm() {
        return checksumAlgorithm == null ? "MD5" : checksumAlgorithm;
    }

    /** @return whether a SUCCEEDED end sends the owner a message */
    public boolean isNotifyOnSucceeded() {
        return notifyOnSucceeded;
    }

    /** @return whether a FAILED end sends the owner a message */
    public boolean isNotifyOnFailed() {
        return notifyOnFailed;
    }

    /** @return whether going INACTIVE sends the owner a message */
    public boolean isNotifyOnInactive() {
        return notifyOnInactive;
    }

    /** @return whether each destination file gets its source's modification time */
    public boolean isPreserveTimestamp() {
        return preserveTimestamp;
    }

    /** @return whether destination extras under recursive items are deleted after the copy */
    public boolean isDeleteDestinationExtra() {
        return deleteDestinationExtra;
    }

    /**
     * @return whether each recursive item's tree digest is compared on the two servers after every
     *     file arrived ({@code ferry_verify_tree_digest})
     */
    public boolean isVerifyTreeDigest() {
        return verifyTreeDigest;
    }

    /** @return the filter rules (empty when the task has none) */
    public FilterRules getFilterRules() {
        return FilterRules.fromJson(filterRules);
    }

    /** @return subtasks skipped for a source error ({@code skip_source_errors}) */
    public long getSubtasksSkippedErrors() {
        return subtasksSkippedErrors;
    }

    /** @return whether its file rows are complete */
    public PlanState getPlanState() {
        return planState;
    }

    /** @return the ferry-server instance that drives the task, or null */
    public String getLeaseOwner() {
        return leaseOwner;
    }

    /** @return when the lease ends unless renewed, or null */
    public Instant getLeaseExpires() {
        return leaseExpires;
    }

    /** @return bytes of files still in flight (counted in {@code bytes_transferred} while ACTIVE) */
    public long getBytesInFlight() {
        return bytesInFlight;
    }

    /** @return no chunk of the task is dispatched before this time (an endpoint is down), or null */
    public Instant getRetryAfter() {
        return retryAfter;
    }

    /** @return transient faults that stopped work since the last file arrived */
    public int getConsecutiveFaults() {
        return consecutiveFaults;
    }

    /**
     * @return Globus' {@code is_ok}: false while the latest news of an ACTIVE task is a fault
     *     (its {@code nice_status} is a fault code), true otherwise
     */
    public boolean isOk() {
        return status != TaskStatus.ACTIVE
                || niceStatus == null
                || NICE_OK.equals(niceStatus)
                || NICE_QUEUED.equals(niceStatus)
                || niceStatus.startsWith("QUEUED_");
    }

    /** @return the fatal error code when FAILED, else null */
    public String getFatalErrorCode() {
        return fatalErrorCode;
    }

    /** @return the fatal error description when FAILED, else null */
    public String getFatalErrorDescription() {
        return fatalErrorDescription;
    }

    /** @return whether a DELETE task removes directories with their contents */
    public boolean isDeleteRecursive() {
        return deleteRecursive;
    }

    /** @return whether a DELETE task takes a missing path as done */
    public boolean isIgnoreMissing() {
        return ignoreMissing;
    }

    /** @return whether an admin other than the owner cancelled the task */
    public boolean isCanceledByAdmin() {
        return canceledByAdmin;
    }

    /** @return whether the task has not ended (ACTIVE, or INACTIVE waiting for an activation) */
    public boolean isOpen() {
        return status == TaskStatus.ACTIVE || status == TaskStatus.INACTIVE;
    }
}
