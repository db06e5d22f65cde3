package org.ferry.api.domain;

/** States of a dispatched chunk (column {@code chunk.state}). */
public enum ChunkState {
    /** A mover works on it; its files are ACTIVE in it. */
    ACTIVE,
    /** Its mover finished it, or its task ended or was suspended. */
    DONE,
    /** Its mover went silent for the chunk timeout; its files were offered again. */
    LOST
}
