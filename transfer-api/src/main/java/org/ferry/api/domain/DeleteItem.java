package org.ferry.api.domain;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.UUID;
import org.hibernate.annotations.Immutable;

/** One {@code DATA[]} entry of a delete task: a path to delete. */
@Entity
@Immutable
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
