package org.ferry.api.repository;

import java.util.List;
import java.util.UUID;
import org.ferry.api.domain.DeleteItem;
import org.springframework.data.jpa.repository.JpaRepository;

/** Paths of delete tasks. */
public interface DeleteItemRepository extends JpaRepository<DeleteItem, UUID> {

    /** @return a task's paths in {@code DATA[]} order */
    List<DeleteItem> findByTaskIdOrderByItemIndex(UUID taskId);
}
