package org.ferry.api.domain;

/** States of a task's file (subtask) row. */
public enum FileState {
    /** To be moved, not before its next attempt time. */
    PENDING,
    /** In a chunk a mover works on. */
    ACTIVE,
    /** The destination confirmed the whole file (226 with the size checked, or the checksum). */
    SUCCEEDED,
    /** A permanent fault; the task failed. */
    FAILED,
    /** A source error skipped with {@code skip_source_errors}. */
    SKIPPED
}
