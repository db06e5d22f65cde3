package org.ferry.api.store;

import org.ferry.api.domain.ChunkState;

/**
 * Every change of a chunk's state there is, the table {@link FileStore} writes by: a chunk is
 * created ACTIVE and ends once, DONE or LOST; an end applied twice changes nothing.
 */
public enum ChunkTransition {
    /** Its mover finished it, or its task ended or was suspended. */
    FINISH(ChunkState.DONE),
    /** Its mover went silent for the chunk timeout. */
    LOSE(ChunkState.LOST);

    private final ChunkState to;

    ChunkTransition(ChunkState to) {
        this.to = to;
    }

    /** @return the state it leads to */
    public ChunkState to() {
        return to;
    }

    /** @return the state it leaves: ACTIVE */
    public ChunkState from() {
        return ChunkState.ACTIVE;
    }

    /**
     * @param from the chunk's state
     * @param to the state asked for
     * @return the transition between the two
     * @throws IllegalTransitionException if the table has none (anything out of DONE or LOST)
     */
    public static ChunkTransition between(ChunkState from, ChunkState to) {
        for (ChunkTransition transition : values()) {
            if (transition.to == to && from == ChunkState.ACTIVE) {
                return transition;
            }
        }
        throw new IllegalTransitionException("chunk", from, to);
    }
}
