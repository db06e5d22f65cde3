package org.ferry.api.repository;

import java.util.List;
import java.util.UUID;
import org.ferry.api.domain.TransferItem;
import org.springframework.data.jpa.repository.JpaRepository;

/** Transfer items of tasks. */
public interface TransferItemRepository extends JpaRepository<TransferItem, UUID> {

    /** @return a task's items in {@code DATA[]} order */
    List<TransferItem> findByTaskIdOrderByItemIndex(UUID taskId);
}
