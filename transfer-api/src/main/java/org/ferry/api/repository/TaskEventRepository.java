package org.ferry.api.repository;

import java.util.UUID;
import org.ferry.api.domain.TaskEvent;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;

/** Task events. */
public interface TaskEventRepository extends JpaRepository<TaskEvent, Long> {

    /** @return one page of a task's events */
    Page<TaskEvent> findByTaskId(UUID taskId, Pageable page);

    /** @return one page of a task's events with the given error flag */
    Page<TaskEvent> findByTaskIdAndError(UUID taskId, boolean error, Pageable page);

    /** @return whether the task has an event with this code (e.g. STARTED is written once) */
    boolean existsByTaskIdAndCode(UUID taskId, String code);
}
