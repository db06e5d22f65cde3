package org.ferry.api.service;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.ferry.api.domain.Task;
import org.ferry.api.domain.TaskStatus;

/**
 * Why an ACTIVE task waits, for people: the task document's {@code nice_status_details} and the
 * task page's line under its status (the per-user or per-pair limit it is queued behind, no free
 * mover slot, or the fault it backs off after and until when).
 */
public final class TaskWaitReason {

    /** The API's time format (ISO-8601 with the offset, as {@code ApiTime}). */
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssxxx").withZone(ZoneOffset.UTC);

    private TaskWaitReason() {}

    /**
     * @param task a task
     * @param now the time
     * @return why the ACTIVE task waits (a limit, or a back-off after a fault), or null if it does not
     */
    public static String of(Task task, Instant now) {
        if (task.getStatus() == TaskStatus.ACTIVE
                && task.getRetryAfter() != null
                && task.getRetryAfter().isAfter(now)) {
            return "Backing off after " + task.getNiceStatus() + " (" + task.getConsecutiveFaults()
                    + (task.getConsecutiveFaults() == 1 ? " fault" : " faults in a row")
                    + "): tried again at " + TIME.format(task.getRetryAfter());
        }
        String status = task.getNiceStatus();
        if (Task.NICE_QUEUED_USER_LIMIT.equals(status)) {
            return "Queued behind its owner's limit of chunks moving at once"
                    + " (ferry.transfer.max-active-chunks-per-user): other tasks of " + task.getOwnerName()
                    + " hold every slot";
        }
        if (Task.NICE_QUEUED_PAIR_LIMIT.equals(status)) {
            return "Queued behind the limit of chunks moving at once between " + task.getSourceEndpoint() + " and "
                    + task.getDestinationEndpoint() + " (ferry.transfer.max-active-chunks-per-endpoint-pair)";
        }
        if (Task.NICE_QUEUED_NO_SLOT.equals(status)) {
            return "Queued: every mover slot is busy with other tasks (ferry.transfer.max-active-chunks on Kafka,"
                    + " ferry.transfer.worker-threads embedded)";
        }
        return null;
    }
}
