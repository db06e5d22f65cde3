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

    /**
     * A task from a row of {@code select * from task} read by plain SQL (the task list, which is
     * polled often enough that Hibernate's per-query work showed in profiles): every mapped column,
     * by the names of the {@code @Column} mapping above, so the task equals the one JPA would load.
     *
     * @param row a result set positioned on a row with all of {@code task}'s mapped columns
     * @return the task
     * @throws SQLException if a column is missing or of another type
     */
    public static Task read(ResultSet row) throws SQLException {
        Task task = new Task();
        task.id = row.getObject("id", UUID.class);
        task.submissionId = row.getString("submission_id");
        task.ownerName = row.getString("owner_name");
        task.type = TaskType.valueOf(row.getString("type"));
        task.status = TaskStatus.valueOf(row.getString("status"));
        task.niceStatus = row.getString("nice_status");
        task.label = row.getString("label");
        task.requestTime = instant(row.getTimestamp("request_time"));
        task.startTime = instant(row.getTimestamp("start_time"));
        task.completionTime = instant(row.getTimestamp("completion_time"));
        task.deadline = instant(row.getTimestamp("deadline"));
        task.sourceEndpointId = row.getObject("source_endpoint_id", UUID.class);
        task.sourceEndpoint = row.getString("source_endpoint");
        task.destinationEndpointId = row.getObject("destination_endpoint_id", UUID.class);
        task.destinationEndpoint = row.getString("destination_endpoint");
        task.syncLevel = row.getObject("sync_level", Integer.class);
        task.verifyChecksum = row.getBoolean("verify_checksum");
        task.encryptData = row.getBoolean("encrypt_data");
        task.preserveTimestamp = row.getBoolean("preserve_timestamp");
        task.files = row.getLong("files");
        task.directories = row.getLong("directories");
        task.filesTransferred = row.getLong("files_transferred");
        task.filesSkipped = row.getLong("files_skipped");
        task.bytesTransferred = row.getLong("bytes_transferred");
        task.faults = row.getLong("faults");
        task.subtasksTotal = row.getLong("subtasks_total");
        task.subtasksSucceeded = row.getLong("subtasks_succeeded");
        task.subtasksFailed = row.getLong("subtasks_failed");
        task.skipSourceErrors = row.getBoolean("skip_source_errors");
        task.failOnQuotaErrors = row.getBoolean("fail_on_quota_errors");
        task.checksumAlgorithm = row.getString("checksum_algorithm");
        task.deleteDestinationExtra = row.getBoolean("delete_destination_extra");
        task.verifyTreeDigest = row.getBoolean("verify_tree_digest");
        task.filterRules = row.getString("filter_rules");
        task.subtasksSkippedErrors = row.getLong("subtasks_skipped_errors");
        task.planState = PlanState.valueOf(row.getString("plan_state"));
        task.leaseOwner = row.getString("lease_owner");
        task.leaseExpires = instant(row.getTimestamp("lease_expires"));
        task.bytesInFlight = row.getLong("bytes_in_flight");
        task.retryAfter = instant(row.getTimestamp("retry_after"));
        task.consecutiveFaults = row.getInt("consecutive_faults");
        task.fatalErrorCode = row.getString("fatal_error_code");
        task.fatalErrorDescription = row.getString("fatal_error_description");
        task.deleteRecursive = row.getBoolean("delete_recursive");
        task.ignoreMissing = row.getBoolean("ignore_missing");
        task.canceledByAdmin = row.getBoolean("canceled_by_admin");
        task.notifyOnSucceeded = row.getBoolean("notify_on_succeeded");
        task.notifyOnFailed = row.getBoolean("notify_on_failed");
        task.notifyOnInactive = row.getBoolean("notify_on_inactive");
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
