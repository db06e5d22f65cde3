package org.ferry.api.command;

import java.time.Instant;
import java.util.List;

/**
 * A delete task to submit, checked: absolute, normalized paths, never the root itself.
 *
 * @param submissionId the client's submission id (a UUID), or null to make one
 * @param endpoint the endpoint's id or canonical name, as given
 * @param label the label, or null
 * @param deadline the deadline, or null for the service's default (24 hours)
 * @param paths the paths to delete, in order
 * @param recursive directories are deleted with their contents
 * @param ignoreMissing a missing path is no error
 * @param skipActivationCheck accept the task although a {@code gsiftp://} endpoint is not
 *     activated (it waits INACTIVE)
 */
public record DeleteSubmission(
        String submissionId,
        String endpoint,
        String label,
        Instant deadline,
        List<String> paths,
        boolean recursive,
        boolean ignoreMissing,
        boolean skipActivationCheck) {

    /** Copies the list. */
    public DeleteSubmission {
        paths = List.copyOf(paths);
        if (paths.isEmpty()) {
            throw new IllegalArgumentException("a delete task has at least one path");
        }
    }
}
