package org.ferry.scheduler.timer;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Date;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.Scheduler;
import org.quartz.TriggerBuilder;
import org.quartz.impl.JobExecutionContextImpl;
import org.quartz.spi.OperableTrigger;
import org.quartz.spi.TriggerFiredBundle;

/** Which tick a Quartz execution of a timer's job names, first run or recovered. */
class TimerRunJobTest {

    private static final Instant TICK = Instant.parse("2026-11-28T19:49:35Z");
    // Quartz fires a few milliseconds after the scheduled time
    private static final Instant FIRED = TICK.plusMillis(37);

    @Test
    void aFirstRunNamesItsScheduledTime() {
        assertThat(TimerRunJob.scheduledTime(context(false, TICK))).isEqualTo(TICK);
    }

    @Test
    void aRecoveredRunNamesTheFailedTicksScheduledTimeNotWhenItFired() {
        // the recovery trigger fires seconds later, when the dead instance is found
        Instant recoveredAt = TICK.plusSeconds(9);
        assertThat(TimerRunJob.scheduledTime(context(true, recoveredAt))).isEqualTo(TICK);
    }

    private static JobExecutionContextImpl context(boolean recovering, Instant scheduledFireTime) {
        String timerId = UUID.randomUUID().toString();
        JobDetail job = JobBuilder.newJob(TimerRunJob.class)
                .withIdentity(timerId, QuartzTimerSchedule.GROUP)
                .build();
        OperableTrigger trigger = (OperableTrigger) TriggerBuilder.newTrigger()
                .forJob(job)
                .startAt(Date.from(scheduledFireTime))
                .build();
        if (recovering) {
            // what JobStoreSupport.recoverJobs and the cluster recovery put in the recovery trigger
            trigger.getJobDataMap()
                    .put(
                            Scheduler.FAILED_JOB_ORIGINAL_TRIGGER_FIRETIME_IN_MILLISECONDS,
                            String.valueOf(FIRED.toEpochMilli()));
            trigger.getJobDataMap()
                    .put(
                            Scheduler.FAILED_JOB_ORIGINAL_TRIGGER_SCHEDULED_FIRETIME_IN_MILLISECONDS,
                            String.valueOf(TICK.toEpochMilli()));
        }
        Date now = Date.from(scheduledFireTime);
        TriggerFiredBundle bundle = new TriggerFiredBundle(job, trigger, null, recovering, now, now, null, null);
        return new JobExecutionContextImpl(null, bundle, null);
    }
}
