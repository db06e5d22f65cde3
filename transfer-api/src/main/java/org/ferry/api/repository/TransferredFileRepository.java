package org.ferry.api.repository;

import java.util.List;
import java.util.UUID;
import org.ferry.api.domain.TransferredFile;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

/** Files that arrived, per task. */
public interface TransferredFileRepository extends JpaRepository<TransferredFile, UUID> {

    /** @return every file of the task that arrived completely */
    List<TransferredFile> findByTaskId(UUID taskId);

    /**
     * One page of a task's arrived files in arrival order (rows are only ever added, later, so
     * paging by position is stable).
     *
     * @return the page's files
     */
    @Query("select f from TransferredFile f where f.taskId = :taskId order by f.completionTime, f.id")
    List<TransferredFile> findPage(@Param("taskId") UUID taskId, Pageable page);
}
