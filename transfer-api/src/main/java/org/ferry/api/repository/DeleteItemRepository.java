package org.ferry.api.repository;

import java.util.List;
import java.util.UUID;
import org.ferry.api.domain.DeleteItem;
import org.springframework.data.repository.Repository;

/** Paths of delete tasks, for reading; {@link org.ferry.api.store.TaskStore} writes them. */
public interface DeleteItemRepository extends Repository<DeleteItem, UUID> {

    /** @return a task's paths in {@code DATA[]} order */
    List<DeleteItem> findByTaskIdOrderByItemIndex(UUID taskId);
}
