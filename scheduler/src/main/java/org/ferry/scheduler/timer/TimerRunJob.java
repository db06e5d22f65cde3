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
 * restarted) instance with its original scheduled time (see {@link #scheduledTime}), and {@link TimerRunner} runs each
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
        Instant scheduled = scheduledTime(context);
        boolean lastTick;
        if (context.isRecovering()) {
            try {
                lastTick = context.getScheduler()
                                .getTrigger(TriggerKey.triggerKey(timerId.toString(), QuartzTimerSchedule.GROUP))
                        == null;
            } catch (SchedulerException e) {
                throw new JobExecutionException(e);
            }
        } else {
            lastTick = context.getTrigger().getNextFireTime() == null;
        }
        runner.tick(timerId, scheduled, lastTick);
    }

    /**
     * The tick's scheduled time, which names its run row. A recovery trigger is a one-off fired
     * when the dead instance is found, so Quartz keeps the failed tick's scheduled time in the job
     * data; the failed tick's actual fire time (milliseconds later than scheduled) is kept there
     * too and must not be taken for it, or the recovered tick gets a second row.
     *
     * @param context the job's context, recovering or not
     * @return the scheduled time of the tick this execution runs
     */
    static Instant scheduledTime(JobExecutionContext context) {
        if (context.isRecovering()) {
            return Instant.ofEpochMilli(context.getMergedJobDataMap()
                    .getLong(Scheduler.FAILED_JOB_ORIGINAL_TRIGGER_SCHEDULED_FIRETIME_IN_MILLISECONDS));
        }
        return context.getScheduledFireTime().toInstant();
    }
}
