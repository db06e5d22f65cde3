package org.ferry.scheduler.timer;

import java.time.Instant;
import java.util.UUID;
import org.quartz.Job;
import org.quartz.JobExecutionContext;
import org.quartz.JobExecutionException;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.TriggerKey;

/**
 * The Quartz job of a timer's tick (its key's name is the timer id): hands the tick to
 * {@link TimerRunner}. Made by Spring's job factory, so its dependencies are injected. Its jobs
 * ask for recovery: a tick whose instance died while running it is run again by another (or the
 * restarted) instance with its original scheduled time, and {@link TimerRunner} runs each
 * scheduled time once.
 */
public class TimerRunJob implements Job {

    private final TimerRunner runner;

    /** @param runner runs ticks */
    public TimerRunJob(TimerRunner runner) {
        this.runner = runner;
    }

    @Override
    public void execute(JobExecutionContext context) throws JobExecutionException {
        UUID timerId = UUID.fromString(context.getJobDetail().getKey().getName());
        Instant scheduled;
        boolean lastTick;
        if (context.isRecovering()) {
            // the recovery trigger is a one-off: the tick's own time and the timer's trigger are
            // where Quartz keeps them for this case
            scheduled = Instant.ofEpochMilli(context.getMergedJobDataMap()
                    .getLong(Scheduler.FAILED_JOB_ORIGINAL_TRIGGER_FIRETIME_IN_MILLISECONDS));
            try {
                lastTick = context.getScheduler()
                                .getTrigger(TriggerKey.triggerKey(timerId.toString(), QuartzTimerSchedule.GROUP))
                        == null;
            } catch (SchedulerException e) {
                throw new JobExecutionException(e);
            }
        } else {
            scheduled = context.getScheduledFireTime().toInstant();
            lastTick = context.getTrigger().getNextFireTime() == null;
        }
        runner.tick(timerId, scheduled, lastTick);
    }
}
