package org.ferry.api.store;

/**
 * A fault of one attempt at a file.
 *
 * @param fileId the file (subtask) row
 * @param chunkId the chunk that tried it
 * @param attempt the attempt's number (1 for the file's first)
 * @param code the fault code
 * @param description what happened
 * @param acknowledged the ranges the destination acknowledged so far, or null
 * @param bytesAcknowledged bytes in those ranges
 */
public record FileFault(
        long fileId,
        long chunkId,
        int attempt,
        String code,
        String description,
        String acknowledged,
        long bytesAcknowledged) {}
