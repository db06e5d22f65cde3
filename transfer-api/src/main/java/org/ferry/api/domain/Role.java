package org.ferry.api.domain;

/** What an account may do. */
public enum Role {
    /** Sees and touches only their own tasks and private endpoints (and public endpoints). */
    USER,
    /** A user who also sees every task, may cancel any, and manages accounts. */
    ADMIN
}
