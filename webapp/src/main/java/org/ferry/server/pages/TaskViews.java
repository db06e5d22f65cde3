package org.ferry.server.pages;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.function.LongSupplier;
import org.ferry.api.domain.PlanState;
import org.ferry.api.domain.Task;
import org.ferry.api.domain.TaskEvent;
import org.ferry.api.domain.TaskStatus;
import org.ferry.api.domain.TransferFile;
import org.ferry.api.service.TaskWaitReason;
import org.springframework.stereotype.Component;

/**
 * What the task page's script receives over its stream: the task's counters, an event, a chart
 * point; numbers come with their display text, so the script formats nothing itself.
 */
@Component
public class TaskViews {

    /** What the rate and time left show before two reads of the task have measured them. */
    static final String MEASURING = "measuring…";
    /** What they show once the task has ended. */
    static final String ENDED = "—";

    private final Formats formats;

    /** @param formats display texts */
    public TaskViews(Formats formats) {
        this.formats = formats;
    }

    /**
     * @param task the task
     * @return its status and counters, with display texts
     */
    public Map<String, Object> task(Task task) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("status", task.getStatus().name());
        view.put("nice_status", task.getNiceStatus());
        view.put("nice_status_details", waitReason(task, Instant.now()));
        view.put("ended", !task.isOpen());
        view.put("files", task.getFiles());
        view.put("directories", task.getDirectories());
        view.put("files_transferred", task.getFilesTransferred());
        view.put("files_skipped", task.getFilesSkipped());
        // while the task runs, the bytes of files still in flight count (as the API's task document)
        long bytes = task.getBytesTransferred() + (task.isOpen() ? task.getBytesInFlight() : 0);
        view.put("bytes_transferred", bytes);
        view.put("bytes_text", formats.bytes(bytes));
        view.put("faults", task.getFaults());
        view.put("subtasks_failed", task.getSubtasksFailed());
        view.put("subtasks_skipped_errors", task.getSubtasksSkippedErrors());
        view.put("percent", formats.percent(task.getFilesTransferred() + task.getFilesSkipped(), task.getFiles()));
        view.put("completion_time", formats.time(task.getCompletionTime()));
        view.put("fatal_error_code", task.getFatalErrorCode());
        view.put("fatal_error_description", task.getFatalErrorDescription());
        return view;
    }

    /**
     * @param task a task
     * @param now the time
     * @return why the ACTIVE task waits (the limit it is queued behind, or the fault it backs off
     *     after and until when), as the task document's {@code nice_status_details}; else null
     */
    public String waitReason(Task task, Instant now) {
        return task.getStatus() == TaskStatus.ACTIVE ? TaskWaitReason.of(task, now) : null;
    }

    /**
     * Adds the current rate and the time left to a task's view: {@code rate_bytes_per_second}
     * (0 while unknown), {@code rate_text} and {@code eta_text}.
     *
     * @param view the task's view, {@link #task}
     * @param task the task
     * @param rate its current rate
     * @param bytesLeft bytes still to move (read only for a planned open task)
     */
    public void rate(Map<String, Object> view, Task task, LiveRate rate, LongSupplier bytesLeft) {
        if (!task.isOpen()) {
            view.put("rate_bytes_per_second", 0);
            view.put("rate_text", ENDED);
            view.put("eta_text", ENDED);
            return;
        }
        OptionalDouble now = rate.bytesPerSecond();
        view.put("rate_bytes_per_second", now.isPresent() ? Math.round(now.getAsDouble()) : 0);
        view.put("rate_text", now.isPresent() ? formats.rate(now.getAsDouble()) : MEASURING);
        if (task.getPlanState() != PlanState.PLANNED) {
            view.put("eta_text", "once the source has been listed");
            return;
        }
        OptionalLong seconds = rate.secondsLeft(bytesLeft.getAsLong());
        view.put(
                "eta_text",
                seconds.isPresent()
                        ? "about " + formats.duration(seconds.getAsLong())
                        : now.isPresent() ? "unknown while nothing moves" : MEASURING);
    }

    /**
     * @param file a file row that failed or was skipped
     * @return its paths, state and the fault that ended it
     */
    public Map<String, Object> problemFile(TransferFile file) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("source_path", file.getSourcePath());
        view.put("destination_path", file.getDestinationPath());
        view.put("state", file.getState().name());
        view.put("fault_code", file.getFaultCode());
        view.put("fault_description", file.getFaultDescription());
        view.put("attempts", file.getAttempts());
        return view;
    }

    /**
     * @param event an event
     * @return its fields, with the time as text
     */
    public Map<String, Object> event(TaskEvent event) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", event.getId());
        view.put("code", event.getCode());
        view.put("is_error", event.isError());
        view.put("description", event.getDescription());
        view.put("details", event.getDetails());
        view.put("time", formats.time(event.getTime()));
        view.put("iso_time", formats.iso(event.getTime()));
        return view;
    }

    /**
     * @param point a chart point
     * @return time (seconds), rate (bytes per second) and its text
     */
    public Map<String, Object> point(ThroughputSeries.Point point) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("t", point.epochSeconds());
        view.put("rate", point.bytesPerSecond());
        view.put("rate_text", formats.rate(point.bytesPerSecond()));
        view.put("bytes", point.bytesTransferred());
        return view;
    }
}
