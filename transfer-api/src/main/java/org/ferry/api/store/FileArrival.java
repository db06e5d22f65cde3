package org.ferry.api.store;

import java.util.UUID;

/**
 * A file its destination confirmed whole.
 *
 * @param fileId the file (subtask) row
 * @param chunkId the chunk that moved it
 * @param taskId its task
 * @param bytes its size
 * @param checksum the verified checksum ({@code MD5:hex}), or null
 */
public record FileArrival(long fileId, long chunkId, UUID taskId, long bytes, String checksum) {}
