package org.ferry.api.store;

/**
 * A mover's progress report of one chunk.
 *
 * @param chunkId the chunk
 * @param bytesInFlight bytes of its files moved so far and not yet counted as arrived
 * @param mover the mover's name
 */
public record ChunkProgress(long chunkId, long bytesInFlight, String mover) {}
