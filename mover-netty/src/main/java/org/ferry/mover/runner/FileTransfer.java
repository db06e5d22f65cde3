package org.ferry.mover.runner;

import java.util.List;
import org.ferry.mover.protocol.ByteRange;

/**
 * One file to move.
 *
 * @param id the service's id of the file (its subtask row); 0 when there is none
 * @param sourcePath absolute path on the source endpoint
 * @param destinationPath absolute path on the destination endpoint
 * @param sizeBytes source size when planned
 * @param acknowledged ranges the destination acknowledged in earlier attempts (restart markers,
 *     end exclusive): the first attempt here resumes from them instead of byte 0; empty for a
 *     fresh file
 * @param attemptsBefore attempts made at this file before (by earlier chunks); attempts here are
 *     numbered from {@code attemptsBefore + 1}
 */
public record FileTransfer(
        long id,
        String sourcePath,
        String destinationPath,
        long sizeBytes,
        List<ByteRange> acknowledged,
        int attemptsBefore) {

    /** Copies the ranges. */
    public FileTransfer {
        acknowledged = List.copyOf(acknowledged);
    }

    /**
     * A fresh file without an id.
     *
     * @param sourcePath absolute path on the source endpoint
     * @param destinationPath absolute path on the destination endpoint
     * @param sizeBytes source size when planned
     */
    public FileTransfer(String sourcePath, String destinationPath, long sizeBytes) {
        this(0, sourcePath, destinationPath, sizeBytes, List.of(), 0);
    }

    /** @return true if earlier attempts left acknowledged ranges to resume from */
    public boolean isResumed() {
        return !acknowledged.isEmpty();
    }
}
