package org.ferry.api.repository;

import java.util.List;
import java.util.UUID;
import org.ferry.api.domain.TransferItem;
import org.springframework.data.repository.Repository;

/** Transfer items of tasks, for reading; {@link org.ferry.api.store.TaskStore} writes them. */
public interface TransferItemRepository extends Repository<TransferItem, UUID> {

    /** @return a task's items in {@code DATA[]} order */
    List<TransferItem> findByTaskIdOrderByItemIndex(UUID taskId);
}
