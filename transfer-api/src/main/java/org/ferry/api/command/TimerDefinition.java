package org.ferry.api.command;

import java.time.Instant;

/**
 * A timer to create, or the fields of one to change (each null to keep): its name, schedule, the
 * transfer each run submits, and which runs e-mail the owner. Times and the transfer are checked
 * by name ({@code timer.schedule.start}, {@code timer.body.DATA[0].source_path}); the schedule's
 * rules (an interval of at least a second, a valid cron expression, an end after the start) are
 * the timer service's.
 *
 * @param name the name, or null (a new timer is then named after its creation time)
 * @param schedule when it runs
 * @param body the transfer each run submits (its submission id is made from the timer and the
 *     tick, so a tick never runs twice)
 * @param notifyOn {@code every_run} or {@code failure}, or null (new timers: {@code failure})
 */
public record TimerDefinition(String name, Schedule schedule, TransferSubmission body, String notifyOn) {

    /**
     * A schedule: {@code recurring} every {@code intervalSeconds}, {@code cron} by a Quartz cron
     * expression in a time zone, or {@code once} at {@code datetime}.
     *
     * @param type recurring, cron or once, as given
     * @param intervalSeconds seconds between ticks (recurring)
     * @param cronExpression the Quartz cron expression (cron)
     * @param timeZone the cron expression's time zone id, or null for UTC
     * @param start the first tick, or null for now
     * @param datetime when a {@code once} timer runs, or null for now
     * @param end when it stops, or null for never
     */
    public record Schedule(
            String type,
            Long intervalSeconds,
            String cronExpression,
            String timeZone,
            Instant start,
            Instant datetime,
            End end) {}

    /**
     * When a timer stops: after {@code count} runs, or at {@code datetime}.
     *
     * @param condition iterations or time, as given
     * @param count runs before it ends
     * @param datetime no tick after this
     */
    public record End(String condition, Integer count, Instant datetime) {}
}
