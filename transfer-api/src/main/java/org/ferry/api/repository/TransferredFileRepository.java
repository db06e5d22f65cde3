package org.ferry.api.repository;

import java.util.List;
import java.util.UUID;
import org.ferry.api.domain.TransferredFile;
import org.springframework.data.jpa.repository.JpaRepository;

/** Files that arrived, per task. */
public interface TransferredFileRepository extends JpaRepository<TransferredFile, UUID> {

    /** @return every file of the task that arrived completely */
    List<TransferredFile> findByTaskId(UUID taskId);
}
