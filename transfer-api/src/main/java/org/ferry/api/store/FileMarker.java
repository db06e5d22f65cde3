package org.ferry.api.store;

/**
 * A restart marker of one file: the ranges its destination acknowledged.
 *
 * @param fileId the file (subtask) row
 * @param chunkId the chunk that reported it
 * @param acknowledged the ranges, {@code a-b,c-d} (end exclusive)
 * @param bytesAcknowledged bytes in those ranges
 */
public record FileMarker(long fileId, long chunkId, String acknowledged, long bytesAcknowledged) {}
