package org.ferry.api.domain;

/**
 * How far a task's plan got (column {@code task.plan_state}). A transfer is planned once: its
 * items are crawled and its file rows written; from then on the rows are the truth.
 */
public enum PlanState {
    /** Not planned yet, or a planning was cut short: it starts again from scratch. */
    NEW,
    /** The file rows are complete; the task is never crawled again. */
    PLANNED
}
