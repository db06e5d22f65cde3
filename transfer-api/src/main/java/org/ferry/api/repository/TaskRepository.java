package org.ferry.api.repository;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.ferry.api.domain.Task;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.Repository;
import org.springframework.data.repository.query.Param;

/**
 * Tasks, for reading: the API's task views and lists. Read-only (no save, no update): every
 * write goes through {@link org.ferry.api.store.TaskStore}.
 */
public interface TaskRepository extends Repository<Task, UUID> {

    /** @return the task */
    Optional<Task> findById(UUID id);

    /** @return the task with this submission id */
    Optional<Task> findBySubmissionId(String submissionId);

    /** @return source and destination endpoint ids of a user's 100 newest tasks, newest first */
    @Query("select t.sourceEndpointId, t.destinationEndpointId from Task t where t.ownerName = :owner"
            + " order by t.requestTime desc limit 100")
    List<Object[]> endpointsUsed(@Param("owner") String ownerName);

    /** @return source and destination endpoint ids of a user's ACTIVE tasks */
    @Query("select t.sourceEndpointId, t.destinationEndpointId from Task t where t.ownerName = :owner"
            + " and t.status = org.ferry.api.domain.TaskStatus.ACTIVE")
    List<Object[]> endpointsOfActiveTasks(@Param("owner") String ownerName);
}
