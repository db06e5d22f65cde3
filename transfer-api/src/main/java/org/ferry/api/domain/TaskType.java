package org.ferry.api.domain;

/** What a task does (column {@code task.type}; the Globus task document's {@code type}). */
public enum TaskType {
    /** Moves files and trees from a source endpoint to a destination endpoint. */
    TRANSFER,
    /** Deletes paths on one endpoint. */
    DELETE
}
