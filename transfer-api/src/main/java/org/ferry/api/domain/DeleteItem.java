package org.ferry.api.domain;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.UUID;

/** One {@code DATA[]} entry of a delete task: a path to delete. */
@Entity
@Table(name = "delete_item")
public class DeleteItem {

    @Id
    private UUID id;

    @Column(name = "task_id", nullable = false)
    private UUID taskId;

    @Column(name = "item_index", nullable = false)
    private int itemIndex;

    @Column(nullable = false)
    private String path;

    /** For JPA. */
    protected DeleteItem() {}

    /**
     * @param taskId owning task
     * @param itemIndex position in {@code DATA[]}
     * @param path absolute, normalized path
     */
    public DeleteItem(UUID taskId, int itemIndex, String path) {
        this.id = UUID.randomUUID();
        this.taskId = taskId;
        this.itemIndex = itemIndex;
        this.path = path;
    }

    /** @return the owning task id */
    public UUID getTaskId() {
        return taskId;
    }

    /** @return the position in {@code DATA[]} */
    public int getItemIndex() {
        return itemIndex;
    }

    /** @return the absolute path */
    public String getPath() {
        return path;
    }
}
