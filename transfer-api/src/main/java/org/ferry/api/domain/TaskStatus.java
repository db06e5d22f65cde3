package org.ferry.api.domain;

/** Task states of the Globus task state machine (service-semantics b.4); INACTIVE comes later. */
public enum TaskStatus {
    /** Queued or being worked. */
    ACTIVE,
    /** Every file arrived (or was skipped by the sync level). */
    SUCCEEDED,
    /** A fatal fault, a passed deadline, or a cancel. */
    FAILED
}
