package org.ferry.api.repository;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.ferry.api.domain.Task;
import org.ferry.api.domain.TaskStatus;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.JpaSpecificationExecutor;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;
import org.springframework.transaction.annotation.Transactional;

/**
 * Tasks. State changes are conditional single-statement updates ({@code ... where status =
 * ACTIVE}) so that a cancel racing a completion, or two movers reporting at once, cannot overwrite
 * each other: the first terminal transition wins, counters add up.
 */
public interface TaskRepository extends JpaRepository<Task, UUID>, JpaSpecificationExecutor<Task> {

    /** @return the task with this submission id */
    Optional<Task> findBySubmissionId(String submissionId);

    /** @return tasks of a type in a status, oldest first (for resuming after a restart) */
    List<Task> findByStatusAndTypeOrderByRequestTime(TaskStatus status, String type);

    /**
     * Sets the label and the deadline of an ACTIVE or INACTIVE task.
     *
     * @return 1 if updated, 0 if the task has ended
     */
    @Transactional
    @Modifying
    @Query("update Task t set t.label = :label, t.deadline = :deadline"
            + " where t.id = :id and t.status in (org.ferry.api.domain.TaskStatus.ACTIVE,"
            + " org.ferry.api.domain.TaskStatus.INACTIVE)")
    int updateLabelAndDeadline(@Param("id") UUID id, @Param("label") String label, @Param("deadline") Instant deadline);

    /** Records that an admin, not the owner, cancelled the task. */
    @Transactional
    @Modifying
    @Query("update Task t set t.canceledByAdmin = true where t.id = :id")
    int markCanceledByAdmin(@Param("id") UUID id);

    /** @return source and destination endpoint ids of a user's 100 newest tasks, newest first */
    @Query("select t.sourceEndpointId, t.destinationEndpointId from Task t where t.ownerName = :owner"
            + " order by t.requestTime desc limit 100")
    List<Object[]> endpointsUsed(@Param("owner") String ownerName);

    /** @return source and destination endpoint ids of a user's ACTIVE tasks */
    @Query("select t.sourceEndpointId, t.destinationEndpointId from Task t where t.ownerName = :owner"
            + " and t.status = org.ferry.api.domain.TaskStatus.ACTIVE")
    List<Object[]> endpointsOfActiveTasks(@Param("owner") String ownerName);

    /** @return one page of a user's tasks, any status */
    Page<Task> findByOwnerName(String ownerName, Pageable page);

    /** @return one page of a user's tasks in the given statuses */
    Page<Task> findByOwnerNameAndStatusIn(String ownerName, Collection<TaskStatus> statuses, Pageable page);

    /**
     * Adds to the counters of a task (negative deltas take back partial bytes of failed attempts).
     *
     * @return rows updated (0 for an unknown task)
     */
    @Transactional
    @Modifying
    @Query("update Task t set t.bytesTransferred = t.bytesTransferred + :bytes,"
            + " t.filesTransferred = t.filesTransferred + :files,"
            + " t.filesSkipped = t.filesSkipped + :skipped,"
            + " t.subtasksSucceeded = t.subtasksSucceeded + :succeeded,"
            + " t.subtasksFailed = t.subtasksFailed + :failed,"
            + " t.faults = t.faults + :faults where t.id = :id")
    int addCounters(
            @Param("id") UUID id,
            @Param("bytes") long bytes,
            @Param("files") long files,
            @Param("skipped") long skipped,
            @Param("succeeded") long succeeded,
            @Param("failed") long failed,
            @Param("faults") long faults);

    /**
     * Records the totals of a DELETE task (files and directories deleted) and resets its per-file
     * counters; transfer tasks record theirs through the scheduler's file rows.
     *
     * @return rows updated
     */
    @Transactional
    @Modifying
    @Query("update Task t set t.files = :files, t.directories = :directories, t.subtasksTotal = :files,"
            + " t.filesTransferred = :filesDone, t.bytesTransferred = :bytesDone, t.filesSkipped = :skipped,"
            + " t.subtasksSucceeded = :filesDone + :skipped, t.subtasksFailed = 0"
            + " where t.id = :id and t.status = org.ferry.api.domain.TaskStatus.ACTIVE")
    int recordPlan(
            @Param("id") UUID id,
            @Param("files") long files,
            @Param("directories") long directories,
            @Param("filesDone") long filesDone,
            @Param("bytesDone") long bytesDone,
            @Param("skipped") long skipped);

    /**
     * Marks work as begun: sets the start time (first time only) and {@code nice_status = OK}.
     *
     * @return rows updated (0 when the task is no longer ACTIVE)
     */
    @Transactional
    @Modifying
    @Query("update Task t set t.startTime = coalesce(t.startTime, :now), t.niceStatus = 'OK'"
            + " where t.id = :id and t.status = org.ferry.api.domain.TaskStatus.ACTIVE")
    int markStarted(@Param("id") UUID id, @Param("now") Instant now);

    /**
     * Sets {@code nice_status} of an ACTIVE task ({@code OK} or the latest fault code).
     *
     * @return rows updated
     */
    @Transactional
    @Modifying
    @Query("update Task t set t.niceStatus = :niceStatus"
            + " where t.id = :id and t.status = org.ferry.api.domain.TaskStatus.ACTIVE")
    int updateNiceStatus(@Param("id") UUID id, @Param("niceStatus") String niceStatus);

    /**
     * Holds the row of an ACTIVE task until the caller's transaction ends (an update that changes
     * nothing takes the row lock on H2 and PostgreSQL alike), so that what the caller writes next
     * (an event) and a concurrent {@link #finish} are ordered: an event written under this lock is
     * never newer than the task's end.
     *
     * @return 1 if the task is ACTIVE (and now locked), 0 if it has ended
     */
    @Modifying
    @Query("update Task t set t.niceStatus = t.niceStatus"
            + " where t.id = :id and t.status = org.ferry.api.domain.TaskStatus.ACTIVE")
    int lockIfActive(@Param("id") UUID id);

    /**
     * Ends an ACTIVE or INACTIVE task (a cancel, a deadline passing while INACTIVE). Only the first
     * end of a task has an effect.
     *
     * @param status FAILED
     * @param fatalErrorCode e.g. {@code CANCELED}, {@code EXPIRED}
     * @param fatalErrorDescription for the user
     * @return 1 if this call ended the task, 0 if it had already ended
     */
    @Transactional
    @Modifying
    @Query("update Task t set t.status = :status, t.niceStatus = null, t.completionTime = :now,"
            + " t.fatalErrorCode = :code, t.fatalErrorDescription = :description"
            + " where t.id = :id and t.status in (org.ferry.api.domain.TaskStatus.ACTIVE,"
            + " org.ferry.api.domain.TaskStatus.INACTIVE)")
    int end(
            @Param("id") UUID id,
            @Param("status") TaskStatus status,
            @Param("code") String fatalErrorCode,
            @Param("description") String fatalErrorDescription,
            @Param("now") Instant now);

    /** @return a user's tasks in a status that use the endpoint as source or destination */
    @Query("select t from Task t where t.status = :status and t.ownerName = :owner"
            + " and (t.sourceEndpointId = :endpoint or t.destinationEndpointId = :endpoint)"
            + " order by t.requestTime")
    List<Task> findUsingEndpoint(
            @Param("status") TaskStatus status, @Param("owner") String ownerName, @Param("endpoint") UUID endpointId);

    /**
     * Ends an ACTIVE task. Only the first call for a task has an effect.
     *
     * @param status SUCCEEDED or FAILED
     * @param fatalErrorCode null for SUCCEEDED
     * @param fatalErrorDescription null for SUCCEEDED
     * @return 1 if this call ended the task, 0 if it had already ended
     */
    @Transactional
    @Modifying
    @Query("update Task t set t.status = :status, t.niceStatus = null, t.completionTime = :now,"
            + " t.fatalErrorCode = :code, t.fatalErrorDescription = :description"
            + " where t.id = :id and t.status = org.ferry.api.domain.TaskStatus.ACTIVE")
    int finish(
            @Param("id") UUID id,
            @Param("status") TaskStatus status,
            @Param("code") String fatalErrorCode,
            @Param("description") String fatalErrorDescription,
            @Param("now") Instant now);
}
