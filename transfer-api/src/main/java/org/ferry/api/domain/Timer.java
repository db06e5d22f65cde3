package org.ferry.api.domain;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/**
 * A timer (Globus Timers): a transfer document submitted as a new task on a schedule. The schedule
 * is {@code recurring} (every {@code intervalSeconds} from {@code startTime}), {@code cron} (a
 * Quartz cron expression in a time zone) or {@code once}; it ends at {@code endTime} or after
 * {@code maxRuns} runs, whichever comes first. The firing itself is a Quartz trigger in the same
 * database; this row is what was asked and the counters.
 */
@Entity
@Table(name = "timer")
public class Timer {

    /** Runs on its schedule. */
    public static final String ACTIVE = "active";
    /** Paused by its owner. */
    public static final String INACTIVE = "inactive";
    /** Its end time passed or it ran its number of runs. */
    public static final String ENDED = "ended";

    /** Every {@code interval_seconds}. */
    public static final String RECURRING = "recurring";
    /** A cron expression in a time zone. */
    public static final String CRON = "cron";
    /** One run at the start time. */
    public static final String ONCE = "once";
    /** {@code notify_on}: e-mail the owner at the end of every run. */
    public static final String NOTIFY_EVERY_RUN = "every_run";
    /** {@code notify_on}: e-mail the owner only when a run fails or goes INACTIVE (the default). */
    public static final String NOTIFY_FAILURE = "failure";

    @Id
    private UUID id;

    @Column(name = "owner_name", nullable = false)
    private String ownerName;

    @Column(nullable = false)
    private String name;

    @Column(nullable = false)
    private String status;

    @Column(name = "schedule_type", nullable = false)
    private String scheduleType;

    @Column(name = "interval_seconds")
    private Long intervalSeconds;

    @Column(name = "cron_expression")
    private String cronExpression;

    @Column(name = "time_zone")
    private String timeZone;

    @Column(name = "start_time", nullable = false)
    private Instant startTime;

    @Column(name = "end_time")
    private Instant endTime;

    @Column(name = "max_runs")
    private Integer maxRuns;

    @Column(nullable = false)
    private String body;

    @Column(name = "notify_on", nullable = false)
    private String notifyOn = NOTIFY_FAILURE;

    @Column(name = "submitted_at", nullable = false)
    private Instant submittedAt;

    @Column(name = "last_ran_at")
    private Instant lastRanAt;

    @Column(name = "number_of_runs", nullable = false)
    private int numberOfRuns;

    @Column(name = "number_of_skips", nullable = false)
    private int numberOfSkips;

    @Column(name = "number_of_errors", nullable = false)
    private int numberOfErrors;

    /** For JPA. */
    protected Timer() {}

    /**
     * A new active timer.
     *
     * @param ownerName its user
     * @param name its name
     * @param body the transfer document (JSON)
     */
    public Timer(String ownerName, String name, String body) {
        this.id = UUID.randomUUID();
        this.ownerName = ownerName;
        this.name = name;
        this.body = body;
        this.status = ACTIVE;
        this.submittedAt = Instant.now();
    }

    /**
     * Sets the schedule.
     *
     * @param type {@link #RECURRING}, {@link #CRON} or {@link #ONCE}
     * @param intervalSeconds the interval of a recurring schedule, else null
     * @param cronExpression the Quartz cron expression of a cron schedule, else null
     * @param timeZone the cron expression's time zone id, else null
     * @param start the first tick (recurring, once) or when the cron schedule begins
     * @param end no tick after this, or null
     * @param maxRuns no more runs than this, or null
     */
    public void schedule(
            String type,
            Long intervalSeconds,
            String cronExpression,
            String timeZone,
            Instant start,
            Instant end,
            Integer maxRuns) {
        this.scheduleType = type;
        this.intervalSeconds = intervalSeconds;
        this.cronExpression = cronExpression;
        this.timeZone = timeZone;
        this.startTime = start;
        this.endTime = end;
        this.maxRuns = maxRuns;
    }

    /** @param name the new name */
    public void rename(String name) {
        this.name = name;
    }

    /** @param body the new transfer document (JSON) */
    public void replaceBody(String body) {
        this.body = body;
    }

    /** @return {@link #NOTIFY_EVERY_RUN} or {@link #NOTIFY_FAILURE} */
    public String getNotifyOn() {
        return notifyOn;
    }

    /** @param notifyOn {@link #NOTIFY_EVERY_RUN} or {@link #NOTIFY_FAILURE} */
    public void setNotifyOn(String notifyOn) {
        this.notifyOn = notifyOn;
    }

    /** @param status {@link #ACTIVE}, {@link #INACTIVE} or {@link #ENDED} */
    public void setStatus(String status) {
        this.status = status;
    }

    /** @return the id (the Quartz job's name) */
    public UUID getId() {
        return id;
    }

    /** @return its user */
    public String getOwnerName() {
        return ownerName;
    }

    /** @return its name */
    public String getName() {
        return name;
    }

    /** @return active, inactive or ended */
    public String getStatus() {
        return status;
    }

    /** @return recurring, cron or once */
    public String getScheduleType() {
        return scheduleType;
    }

    /** @return the interval of a recurring schedule, else null */
    public Long getIntervalSeconds() {
        return intervalSeconds;
    }

    /** @return the cron expression, else null */
    public String getCronExpression() {
        return cronExpression;
    }

    /** @return the cron expression's time zone id, else null */
    public String getTimeZone() {
        return timeZone;
    }

    /** @return the first tick */
    public Instant getStartTime() {
        return startTime;
    }

    /** @return no tick after this, or null */
    public Instant getEndTime() {
        return endTime;
    }

    /** @return the most runs, or null */
    public Integer getMaxRuns() {
        return maxRuns;
    }

    /** @return the transfer document (JSON) */
    public String getBody() {
        return body;
    }

    /** @return when it was created */
    public Instant getSubmittedAt() {
        return submittedAt;
    }

    /** @return when it last submitted a run, or null */
    public Instant getLastRanAt() {
        return lastRanAt;
    }

    /** @return runs submitted */
    public int getNumberOfRuns() {
        return numberOfRuns;
    }

    /** @return ticks skipped because the previous run was still going */
    public int getNumberOfSkips() {
        return numberOfSkips;
    }

    /** @return ticks whose run could not be submitted */
    public int getNumberOfErrors() {
        return numberOfErrors;
    }
}
