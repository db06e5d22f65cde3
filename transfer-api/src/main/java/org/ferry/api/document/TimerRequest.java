package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The body of {@code POST /timer} and {@code PATCH /timer/{id}}, in the shape of Globus Timers'
 * {@code POST /v2/timer}: {@code {"timer": {...}}}. On a PATCH every field is optional and only
 * those given change.
 *
 * @param timer the timer's fields
 */
public record TimerRequest(TimerFields timer) {

    /**
     * @param timerType {@code transfer} or absent
     * @param name at most 128 characters
     * @param schedule when it runs
     * @param body the transfer document each run submits (its {@code submission_id} is ignored:
     *     each run gets one made from the timer and the tick, so a tick never runs twice)
     * @param resourceServer {@code transfer.api.globus.org} or absent (accepted, as Globus sends it)
     * @param notifyOn {@code every_run} (each run's end is e-mailed to the owner) or {@code failure}
     *     (only a FAILED or INACTIVE run; the default); it sets each run's {@code notify_on_*}
     */
    public record TimerFields(
            @JsonProperty("timer_type") String timerType,
            String name,
            Schedule schedule,
            TransferRequest body,
            @JsonProperty("resource_server") String resourceServer,
            @JsonProperty("notify_on") String notifyOn) {}

    /**
     * A schedule: {@code {"type":"recurring","interval_seconds":N,"start":...,"end":...}},
     * {@code {"type":"cron","cron_expression":"0 0 2 * * ?","time_zone":"Europe/Berlin",...}} (a
     * Ferry extension: a Quartz cron expression) or {@code {"type":"once","datetime":...}}.
     *
     * @param type recurring, cron or once
     * @param intervalSeconds seconds between ticks (recurring), at least 1
     * @param cronExpression a Quartz cron expression (cron): seconds minutes hours day-of-month
     *     month day-of-week [year]
     * @param timeZone the cron expression's time zone id (default UTC)
     * @param start the first tick (default now), ISO-8601
     * @param datetime when a {@code once} timer runs (default now)
     * @param end when it stops
     */
    public record Schedule(
            String type,
            @JsonProperty("interval_seconds") Long intervalSeconds,
            @JsonProperty("cron_expression") String cronExpression,
            @JsonProperty("time_zone") String timeZone,
            String start,
            String datetime,
            End end) {}

    /**
     * {@code {"condition":"iterations","count":N}} (Globus also spells it {@code iterations}) or
     * {@code {"condition":"time","datetime":...}}.
     *
     * @param condition iterations or time
     * @param count runs before it ends
     * @param iterations the same as count
     * @param datetime no tick after this
     */
    public record End(String condition, Integer count, Integer iterations, String datetime) {}
}
