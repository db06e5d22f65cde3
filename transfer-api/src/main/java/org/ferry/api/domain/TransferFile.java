package org.ferry.api.domain;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;
import org.hibernate.annotations.Immutable;

/**
 * One file of a task (a subtask): its state, attempts, last fault, checksum when verified, and
 * the byte ranges the destination has acknowledged (restart markers), from which a retried file
 * resumes. The scheduler writes these rows in bulk with conditional SQL updates (state and chunk
 * guards make every result idempotent); this entity is for reading them ({@code
 * successful_transfers}, {@code skipped_errors}).
 */
@Entity
@Immutable
@Table(name = "transfer_file")
public class TransferFile {

    @Id
    private Long id;

    @Column(name = "task_id", nullable = false)
    private UUID taskId;

    @Column(name = "source_path", nullable = false)
    private String sourcePath;

    @Column(name = "destination_path", nullable = false)
    private String destinationPath;

    @Column(name = "size_bytes", nullable = false)
    private long sizeBytes;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    private FileState state;

    @Column(name = "chunk_id")
    private Long chunkId;

    @Column(nullable = false)
    private int attempts;

    @Column(name = "next_attempt_time")
    private Instant nextAttemptTime;

    @Column(name = "fault_code")
    private String faultCode;

    @Column(name = "fault_description")
    private String faultDescription;

    private String acknowledged;

    @Column(name = "bytes_acknowledged", nullable = false)
    private long bytesAcknowledged;

    private String checksum;

    @Column(name = "completion_time")
    private Instant completionTime;

    /** For JPA. */
    protected TransferFile() {}

    /** @return the row id */
    public Long getId() {
        return id;
    }

    /** @return the task */
    public UUID getTaskId() {
        return taskId;
    }

    /** @return the absolute source path */
    public String getSourcePath() {
        return sourcePath;
    }

    /** @return the absolute destination path */
    public String getDestinationPath() {
        return destinationPath;
    }

    /** @return the planned size */
    public long getSizeBytes() {
        return sizeBytes;
    }

    /** @return the state */
    public FileState getState() {
        return state;
    }

    /** @return the chunk it is in while ACTIVE, else null */
    public Long getChunkId() {
        return chunkId;
    }

    /** @return failed attempts so far */
    public int getAttempts() {
        return attempts;
    }

    /** @return not before this time is a PENDING file offered again (back-off), or null */
    public Instant getNextAttemptTime() {
        return nextAttemptTime;
    }

    /** @return the last fault's code, or null */
    public String getFaultCode() {
        return faultCode;
    }

    /** @return the last fault's description, or null */
    public String getFaultDescription() {
        return faultDescription;
    }

    /** @return acknowledged ranges {@code a-b,c-d} (end exclusive), or null */
    public String getAcknowledged() {
        return acknowledged;
    }

    /** @return bytes in the acknowledged ranges */
    public long getBytesAcknowledged() {
        return bytesAcknowledged;
    }

    /** @return the verified checksum ({@code MD5:hex}), or null */
    public String getChecksum() {
        return checksum;
    }

    /** @return when it succeeded, failed or was skipped, or null */
    public Instant getCompletionTime() {
        return completionTime;
    }
}
