package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * {@code GET /timer/{id}/runs}: the timer's ticks in scheduled order.
 *
 * @param dataType {@code timer_run_list}
 * @param jobId the timer
 * @param runs the ticks
 */
public record TimerRunListDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        @JsonProperty("job_id") String jobId,
        List<Run> runs) {

    /**
     * @param scheduledTime the tick
     * @param firedTime when it fired
     * @param outcome {@code SUBMITTED} (a task), {@code SKIPPED} (the previous run was still
     *     going) or {@code ERROR}
     * @param taskId the run's task, or null
     * @param description why it was skipped or failed
     */
    public record Run(
            @JsonProperty("scheduled_time") String scheduledTime,
            @JsonProperty("fired_time") String firedTime,
            String outcome,
            @JsonProperty("task_id") String taskId,
            String description) {}
}
