package org.ferry.api.domain;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.UUID;
import org.hibernate.annotations.Immutable;

/** One {@code DATA[]} entry of a transfer: a file, or a directory moved recursively. */
@Entity
@Immutable
@Table(name = "transfer_item")
public class TransferItem {

    @Id
    private UUID id;

    @Column(name = "task_id", nullable = false)
    private UUID taskId;

    @Column(name = "item_index", nullable = false)
    private int itemIndex;

    @Column(name = "source_path", nullable = false)
    private String sourcePath;

    @Column(name = "destination_path", nullable = false)
    private String destinationPath;

    @Column(nullable = false)
    private boolean recursive;

    @Column(name = "external_checksum")
    private String externalChecksum;

    /** For JPA. */
    protected TransferItem() {}

    /**
     * @param taskId owning task
     * @param itemIndex position in {@code DATA[]}
     * @param sourcePath absolute source path
     * @param destinationPath absolute destination path (the file itself, or the directory that
     *     receives the source directory's contents)
     * @param recursive whether the source is a directory to copy recursively
     */
    public TransferItem(UUID taskId, int itemIndex, String sourcePath, String destinationPath, boolean recursive) {
        this.id = UUID.randomUUID();
        this.taskId = taskId;
        this.itemIndex = itemIndex;
        this.sourcePath = sourcePath;
        this.destinationPath = destinationPath;
        this.recursive = recursive;
    }

    /**
     * @return the checksum the user gave for a file item ({@code external_checksum}, hex in the
     *     task's algorithm), or null
     */
    public String getExternalChecksum() {
        return externalChecksum;
    }

    /** @return the owning task id */
    public UUID getTaskId() {
        return taskId;
    }

    /** @return the position in {@code DATA[]} */
    public int getItemIndex() {
        return itemIndex;
    }

    /** @return the absolute source path */
    public String getSourcePath() {
        return sourcePath;
    }

    /** @return the absolute destination path */
    public String getDestinationPath() {
        return destinationPath;
    }

    /** @return whether the item is a recursive directory */
    public boolean isRecursive() {
        return recursive;
    }
}
