package org.ferry.api.store;

import java.util.EnumSet;
import java.util.Set;
import org.ferry.api.domain.FileState;

/**
 * Every change of a file (subtask) row's state there is, the table {@link FileStore} writes by.
 * A planned file starts PENDING (or SKIPPED, for a source error skipped with
 * {@code skip_source_errors}); SUCCEEDED, FAILED and SKIPPED are final. Every update is
 * conditional on the row being in the {@link #from} state and, for a mover's result, in the
 * result's chunk, so a result applied twice, late, or from a lost mover changes nothing.
 */
public enum FileTransition {
    /** Cut into a chunk and handed to a mover. */
    DISPATCH(FileState.ACTIVE, FileState.PENDING),
    /** A transient fault the mover retries within its chunk (the attempt is counted). */
    RETRY_IN_CHUNK(FileState.ACTIVE, FileState.ACTIVE),
    /**
     * Back to the queue with its acknowledged ranges: a transient fault the mover gave up on (after
     * a back-off), its chunk ended without it, its mover went silent, or its task was suspended.
     */
    GIVE_BACK(FileState.PENDING, FileState.ACTIVE),
    /** The destination confirmed the whole file. */
    ARRIVE(FileState.SUCCEEDED, FileState.ACTIVE),
    /** A permanent fault. */
    FAIL(FileState.FAILED, FileState.ACTIVE),
    /** A permanent fault of the source skipped with {@code skip_source_errors}. */
    SKIP(FileState.SKIPPED, FileState.ACTIVE);

    private final FileState to;
    private final FileState from;

    FileTransition(FileState to, FileState from) {
        this.to = to;
        this.from = from;
    }

    /** @return the state it leads to */
    public FileState to() {
        return to;
    }

    /** @return the state it leaves */
    public FileState from() {
        return from;
    }

    /** @return the states a file can be planned in: PENDING, or SKIPPED for a skipped source error */
    public static Set<FileState> initial() {
        return EnumSet.of(FileState.PENDING, FileState.SKIPPED);
    }

    /**
     * @param from the file's state
     * @param to the state asked for
     * @return the transition between the two
     * @throws IllegalTransitionException if the table has none (e.g. anything out of SUCCEEDED)
     */
    public static FileTransition between(FileState from, FileState to) {
        for (FileTransition transition : values()) {
            if (transition.to == to && transition.from == from) {
                return transition;
            }
        }
        throw new IllegalTransitionException("file", from, to);
    }
}
