package org.ferry.api.repository;

import java.util.Collection;
import java.util.List;
import java.util.UUID;
import org.ferry.api.domain.TaskEvent;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.repository.Repository;

/** Task events, for reading; {@link org.ferry.api.store.TaskStore} writes them. */
public interface TaskEventRepository extends Repository<TaskEvent, Long> {

    /** @return one page of a task's events */
    Page<TaskEvent> findByTaskId(UUID taskId, Pageable page);

    /** @return one page of a task's events with the given error flag */
    Page<TaskEvent> findByTaskIdAndError(UUID taskId, boolean error, Pageable page);

    /**
     * @param taskId the task
     * @param afterId only events with a larger id (0: all)
     * @param codes the event codes wanted
     * @return the task's events with those codes after {@code afterId}, oldest first
     */
    List<TaskEvent> findByTaskIdAndIdGreaterThanAndCodeInOrderByIdAsc(
            UUID taskId, long afterId, Collection<String> codes);

    /**
     * @param taskId the task
     * @param afterId only events with a larger id (0: all)
     * @return the task's events after {@code afterId}, oldest first
     */
    List<TaskEvent> findByTaskIdAndIdGreaterThanOrderByIdAsc(UUID taskId, long afterId);
}
