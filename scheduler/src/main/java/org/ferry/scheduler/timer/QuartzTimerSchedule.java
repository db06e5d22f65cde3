package org.ferry.scheduler.timer;

import java.text.ParseException;
import java.time.Instant;
import java.util.Date;
import java.util.Set;
import java.util.TimeZone;
import java.util.UUID;
import org.ferry.api.domain.Timer;
import org.ferry.api.service.TimerSchedule;
import org.quartz.CronExpression;
import org.quartz.CronScheduleBuilder;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.TriggerKey;
import org.springframework.stereotype.Component;

/**
 * {@link TimerSchedule} on Quartz: one durable-less job and one trigger per active timer, both
 * named by the timer id in group {@value #GROUP}. An interval timer's ticks stay on
 * {@code start + n x interval} (also after a resume); a cron timer's follow the expression in its
 * time zone; both stop at the end time. The run count is the timer's own business
 * ({@link TimerRunner}): skipped ticks do not count, as in Globus Timers.
 */
@Component
public class QuartzTimerSchedule implements TimerSchedule {

    /** The Quartz group of timer jobs and triggers. */
    static final String GROUP = "ferry-timers";

    private final Scheduler scheduler;

    /** @param scheduler the clustered Quartz scheduler */
    public QuartzTimerSchedule(Scheduler scheduler) {
        this.scheduler = scheduler;
    }

    @Override
    public void checkCron(String cronExpression) {
        try {
            CronExpression.validateExpression(cronExpression);
        } catch (ParseException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    @Override
    public void schedule(Timer timer, Instant notBefore) {
        String name = timer.getId().toString();
        JobDetail job = JobBuilder.newJob(TimerRunJob.class)
                .withIdentity(name, GROUP)
                .withDescription(timer.getName())
                .requestRecovery(true)
                .build();
        TriggerBuilder<Trigger> trigger =
                TriggerBuilder.newTrigger().withIdentity(name, GROUP).forJob(job);
        Trigger built = switch (timer.getScheduleType()) {
            case Timer.RECURRING ->
                trigger.startAt(Date.from(firstTick(timer, notBefore)))
                        .endAt(timer.getEndTime() == null ? null : Date.from(timer.getEndTime()))
                        .withSchedule(SimpleScheduleBuilder.simpleSchedule()
                                .withIntervalInMilliseconds(timer.getIntervalSeconds() * 1000)
                                .repeatForever()
                                .withMisfireHandlingInstructionNextWithRemainingCount())
                        .build();
            case Timer.CRON ->
                trigger.startAt(Date.from(later(timer.getStartTime(), notBefore)))
                        .endAt(timer.getEndTime() == null ? null : Date.from(timer.getEndTime()))
                        .withSchedule(CronScheduleBuilder.cronSchedule(timer.getCronExpression())
                                .inTimeZone(TimeZone.getTimeZone(timer.getTimeZone()))
                                .withMisfireHandlingInstructionFireAndProceed())
                        .build();
            default ->
                trigger.startAt(Date.from(later(timer.getStartTime(), notBefore)))
                        .withSchedule(SimpleScheduleBuilder.simpleSchedule().withMisfireHandlingInstructionFireNow())
                        .build();
        };
        try {
            // delete, then add: Quartz's JDBC store cannot replace a trigger by one of another
            // type (interval <-> cron) in place
            scheduler.deleteJob(job.getKey());
            scheduler.scheduleJob(job, Set.of(built), false);
        } catch (SchedulerException e) {
            throw new IllegalStateException("Cannot schedule timer " + name + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void unschedule(UUID timerId) {
        try {
            scheduler.deleteJob(JobKey.jobKey(timerId.toString(), GROUP));
        } catch (SchedulerException e) {
            throw new IllegalStateException("Cannot unschedule timer " + timerId + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Instant nextRun(UUID timerId) {
        try {
            Trigger trigger = scheduler.getTrigger(TriggerKey.triggerKey(timerId.toString(), GROUP));
            return trigger == null || trigger.getNextFireTime() == null
                    ? null
                    : trigger.getNextFireTime().toInstant();
        } catch (SchedulerException e) {
            throw new IllegalStateException("Cannot read timer " + timerId + ": " + e.getMessage(), e);
        }
    }

    /** The first tick {@code start + n x interval} at or after notBefore. */
    static Instant firstTick(Timer timer, Instant notBefore) {
        Instant start = timer.getStartTime();
        if (!start.isBefore(notBefore)) {
            return start;
        }
        long intervalMillis = timer.getIntervalSeconds() * 1000;
        long behind = notBefore.toEpochMilli() - start.toEpochMilli();
        long ticks = (behind + intervalMillis - 1) / intervalMillis;
        return start.plusMillis(ticks * intervalMillis);
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
