package org.ferry.api.domain;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.Instant;
import java.util.UUID;
import org.hibernate.annotations.Immutable;

/** Something that happened to a task: a lifecycle step or a fault (service-semantics b.5). */
@Entity
@Immutable
@Table(name = "task_event")
public class TaskEvent {

    /** Longest description stored; longer ones are cut. */
    public static final int MAX_DESCRIPTION_CHARS = 1024;
    /** Longest details text stored; longer ones are cut. */
    public static final int MAX_DETAILS_CHARS = 8000;

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "task_id", nullable = false)
    private UUID taskId;

    @Column(nullable = false)
    private String code;

    @Column(name = "is_error", nullable = false)
    private boolean error;

    @Column(nullable = false)
    private String description;

    private String details;

    @Column(name = "event_time", nullable = false)
    private Instant time;

    /** For JPA. */
    protected TaskEvent() {}

    /** @return the event's id: events of a task are numbered in the order they were written */
    public Long getId() {
        return id;
    }

    /** @return the task id */
    public UUID getTaskId() {
        return taskId;
    }

    /** @return the event code */
    public String getCode() {
        return code;
    }

    /** @return whether this is a fault */
    public boolean isError() {
        return error;
    }

    /** @return the description */
    public String getDescription() {
        return description;
    }

    /** @return the details or null */
    public String getDetails() {
        return details;
    }

    /** @return when it happened */
    public Instant getTime() {
        return time;
    }
}
