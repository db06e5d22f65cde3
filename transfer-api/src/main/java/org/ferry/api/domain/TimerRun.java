package org.ferry.api.domain;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;

/** One tick of a {@link Timer}: the task it submitted, or why it did not (read-only here). */
@Entity
@Table(name = "timer_run")
public class TimerRun {

    /** The tick submitted a task. */
    public static final String SUBMITTED = "SUBMITTED";
    /** The previous run was still going: nothing was submitted. */
    public static final String SKIPPED = "SKIPPED";
    /** Submitting failed (the description says why). */
    public static final String ERROR = "ERROR";

    @Id
    private Long id;

    @Column(name = "timer_id", nullable = false)
    private UUID timerId;

    @Column(name = "scheduled_time", nullable = false)
    private Instant scheduledTime;

    @Column(name = "fired_time", nullable = false)
    private Instant firedTime;

    @Column(nullable = false)
    private String outcome;

    @Column(name = "task_id")
    private UUID taskId;

    private String description;

    /** For JPA. */
    protected TimerRun() {}

    /** @return the row id (ascending in firing order) */
    public Long getId() {
        return id;
    }

    /** @return the timer */
    public UUID getTimerId() {
        return timerId;
    }

    /** @return the tick's scheduled time */
    public Instant getScheduledTime() {
        return scheduledTime;
    }

    /** @return when it fired */
    public Instant getFiredTime() {
        return firedTime;
    }

    /** @return SUBMITTED, SKIPPED or ERROR */
    public String getOutcome() {
        return outcome;
    }

    /** @return the task of a SUBMITTED tick, else null */
    public UUID getTaskId() {
        return taskId;
    }

    /** @return why a tick was skipped or failed */
    public String getDescription() {
        return description;
    }
}
