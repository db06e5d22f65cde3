package org.ferry.api.service;

import java.time.Instant;
import java.util.UUID;
import org.ferry.api.domain.Timer;

/**
 * The port to the timers' clock: the scheduler implements it with Quartz (JDBC job store in the
 * same database, so a change joins the caller's transaction); the API never imports the scheduler.
 */
public interface TimerSchedule {

    /**
     * @param cronExpression a Quartz cron expression
     * @throws IllegalArgumentException saying what is wrong with it
     */
    void checkCron(String cronExpression);

    /**
     * Creates or replaces the timer's trigger from its schedule; ticks before {@code notBefore}
     * are not fired (a resumed timer does not make up for its pause).
     *
     * @param timer the timer
     * @param notBefore the earliest tick
     */
    void schedule(Timer timer, Instant notBefore);

    /** @param timerId removes the timer's trigger (paused, ended or deleted timers have none) */
    void unschedule(UUID timerId);

    /**
     * @param timerId the timer
     * @return its next tick, or null if it has none
     */
    Instant nextRun(UUID timerId);
}
