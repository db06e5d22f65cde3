package org.ferry.api.domain;

/** Task states of the Globus task state machine (service-semantics b.4). */
public enum TaskStatus {
    /** Queued or being worked. */
    ACTIVE,
    /**
     * Suspended until the owner acts: an endpoint's credential expired or was deactivated. It
     * resumes by itself (ACTIVE again) when the endpoint is activated before the deadline, and
     * fails EXPIRED at the deadline otherwise.
     */
    INACTIVE,
    /** Every file arrived (or was skipped by the sync level). */
    SUCCEEDED,
    /** A fatal fault, a passed deadline, or a cancel. */
    FAILED
}
