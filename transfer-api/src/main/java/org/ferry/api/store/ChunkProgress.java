package org.ferry.api.store;

/**
 * A mover's progress report of one chunk.
 *
 * @param chunkId the chunk
 * @param bytesInFlight bytes of its files moved so far and not yet counted as arrived
 * @param mover the mover's name
 * @param destinationsInFlight a multicast chunk's bytes and files in flight per destination
 *     ({@code bytes/files,...}, the first destination first), else null
 */
public record ChunkProgress(long chunkId, long bytesInFlight, String mover, String destinationsInFlight) {

    /**
     * @param chunkId the chunk
     * @param bytesInFlight bytes of its files moved so far and not yet counted as arrived
     * @param mover the mover's name
     */
    public ChunkProgress(long chunkId, long bytesInFlight, String mover) {
        this(chunkId, bytesInFlight, mover, null);
    }
}
