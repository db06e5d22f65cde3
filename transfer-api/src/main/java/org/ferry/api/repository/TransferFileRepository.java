package org.ferry.api.repository;

import java.util.Collection;
import java.util.List;
import java.util.UUID;
import org.ferry.api.domain.FileState;
import org.ferry.api.domain.TransferFile;
import org.springframework.data.domain.Pageable;
import org.springframework.data.repository.Repository;

/**
 * A task's file rows, for reading: {@code successful_transfers} (SUCCEEDED) and
 * {@code skipped_errors} (SKIPPED) page by id ({@code marker} = the last id of the page before).
 * {@link org.ferry.api.store.FileStore} writes them.
 */
public interface TransferFileRepository extends Repository<TransferFile, Long> {

    /**
     * @param taskId the task
     * @param state the state
     * @param afterId the last id of the previous page (0 for the first page)
     * @param page the page size ({@code PageRequest.of(0, limit)})
     * @return the next rows of the task in that state, by id
     */
    List<TransferFile> findByTaskIdAndStateAndIdGreaterThanOrderById(
            UUID taskId, FileState state, long afterId, Pageable page);

    /**
     * @param taskId the task
     * @param states the states wanted
     * @param page the page size ({@code PageRequest.of(0, limit)})
     * @return the task's first rows in those states, by id
     */
    List<TransferFile> findByTaskIdAndStateInOrderById(UUID taskId, Collection<FileState> states, Pageable page);
}
