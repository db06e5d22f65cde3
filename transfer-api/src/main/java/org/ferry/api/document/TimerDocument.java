package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;
import tools.jackson.databind.JsonNode;

/**
 * A timer, in the shape of Globus Timers' timer document.
 *
 * @param dataType {@code timer}
 * @param jobId the timer's id
 * @param name its name
 * @param timerType {@code transfer}
 * @param owner its user
 * @param status {@code active}, {@code inactive} (paused) or {@code ended}
 * @param inactiveReason {@code {"cause":"user"}} while paused, else null
 * @param submittedAt when it was created
 * @param lastRanAt when it last submitted a run, or null
 * @param nextRun the next tick, or null (paused, ended)
 * @param numberOfRuns runs submitted
 * @param numberOfSkips ticks skipped because the previous run was still going
 * @param numberOfErrors ticks whose run could not be submitted
 * @param schedule the schedule as given (normalized)
 * @param body the transfer document each run submits
 * @param activity {@code {"code": awaiting_next_run | run_in_progress | paused | ended}}
 * @param notifyOn {@code every_run} or {@code failure}: which runs e-mail the owner
 */
public record TimerDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        @JsonProperty("job_id") String jobId,
        String name,
        @JsonProperty("timer_type") String timerType,
        String owner,
        String status,
        @JsonProperty("inactive_reason") JsonNode inactiveReason,
        @JsonProperty("submitted_at") String submittedAt,
        @JsonProperty("last_ran_at") String lastRanAt,
        @JsonProperty("next_run") String nextRun,
        @JsonProperty("number_of_runs") int numberOfRuns,
        @JsonProperty("number_of_skips") int numberOfSkips,
        @JsonProperty("number_of_errors") int numberOfErrors,
        JsonNode schedule,
        JsonNode body,
        JsonNode activity,
        @JsonProperty("notify_on") String notifyOn) {}
