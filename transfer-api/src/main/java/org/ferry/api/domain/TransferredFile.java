package org.ferry.api.domain;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/** A file of a task that arrived completely (the basis for resuming after a restart). */
@Entity
@Table(name = "transferred_file")
public class TransferredFile {

    @Id
    private UUID id;

    @Column(name = "task_id", nullable = false)
    private UUID taskId;

    @Column(name = "source_path", nullable = false)
    private String sourcePath;

    @Column(name = "destination_path", nullable = false)
    private String destinationPath;

    @Column(name = "size_bytes", nullable = false)
    private long sizeBytes;

    @Column(name = "completion_time", nullable = false)
    private Instant completionTime;

    /** For JPA. */
    protected TransferredFile() {}

    /**
     * @param taskId owning task
     * @param sourcePath absolute source path
     * @param destinationPath absolute destination path
     * @param sizeBytes bytes moved
     */
    public TransferredFile(UUID taskId, String sourcePath, String destinationPath, long sizeBytes) {
        this.id = UUID.randomUUID();
        this.taskId = taskId;
        this.sourcePath = sourcePath;
        this.destinationPath = destinationPath;
        this.sizeBytes = sizeBytes;
        this.completionTime = Instant.now();
    }

    /** @return the source path */
    public String getSourcePath() {
        return sourcePath;
    }

    /** @return the destination path */
    public String getDestinationPath() {
        return destinationPath;
    }

    /** @return the size in bytes */
    public long getSizeBytes() {
        return sizeBytes;
    }

    /** @return the owning task id */
    public UUID getTaskId() {
        return taskId;
    }

    /** @return when the file arrived */
    public Instant getCompletionTime() {
        return completionTime;
    }
}
