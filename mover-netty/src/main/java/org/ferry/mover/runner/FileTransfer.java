package org.ferry.mover.runner;

import java.time.Instant;
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
 * @param sourceModified the source file's modification time when planned (its {@code Modify}
 *     fact, RFC 3659 section 7), which the destination file gets when the chunk preserves
 *     timestamps; null when unknown (the runner then asks the source)
 * @param externalChecksum the checksum the user gave for the file ({@code external_checksum}, hex
 *     in the chunk's {@link ChunkRequest#checksumAlgorithm}), which the destination's must equal
 *     besides the source's; null when none was given
 */
public record FileTransfer(
        long id,
        String sourcePath,
        String destinationPath,
        long sizeBytes,
        List<ByteRange> acknowledged,
        int attemptsBefore,
        Instant sourceModified,
        String externalChecksum) {

    /** Copies the ranges. */
    public FileTransfer {
        acknowledged = List.copyOf(acknowledged);
    }

    /**
     * A file without a given checksum.
     *
     * @param id the service's id of the file; 0 when there is none
     * @param sourcePath absolute path on the source endpoint
     * @param destinationPath absolute path on the destination endpoint
     * @param sizeBytes source size when planned
     * @param acknowledged ranges the destination acknowledged in earlier attempts
     * @param attemptsBefore attempts made at this file before
     * @param sourceModified the source file's modification time when planned, or null
     */
    public FileTransfer(
            long id,
            String sourcePath,
            String destinationPath,
            long sizeBytes,
            List<ByteRange> acknowledged,
            int attemptsBefore,
            Instant sourceModified) {
        this(id, sourcePath, destinationPath, sizeBytes, acknowledged, attemptsBefore, sourceModified, null);
    }

    /**
     * A file whose source modification time is not known.
     *
     * @param id the service's id of the file; 0 when there is none
     * @param sourcePath absolute path on the source endpoint
     * @param destinationPath absolute path on the destination endpoint
     * @param sizeBytes source size when planned
     * @param acknowledged ranges the destination acknowledged in earlier attempts
     * @param attemptsBefore attempts made at this file before
     */
    public FileTransfer(
            long id,
            String sourcePath,
            String destinationPath,
            long sizeBytes,
            List<ByteRange> acknowledged,
            int attemptsBefore) {
        this(id, sourcePath, destinationPath, sizeBytes, acknowledged, attemptsBefore, null, null);
    }

    /**
     * A fresh file without an id.
     *
     * @param sourcePath absolute path on the source endpoint
     * @param destinationPath absolute path on the destination endpoint
     * @param sizeBytes source size when planned
     */
    public FileTransfer(String sourcePath, String destinationPath, long sizeBytes) {
        this(0, sourcePath, destinationPath, sizeBytes, List.of(), 0, null, null);
    }

    /**
     * @return the file after one more failed attempt whose bytes cannot be trusted: sent again
     *     whole, its attempts numbered after that one
     */
    public FileTransfer afterFailedAttempt() {
        return new FileTransfer(
                id,
                sourcePath,
                destinationPath,
                sizeBytes,
                List.of(),
                attemptsBefore + 1,
                sourceModified,
                externalChecksum);
    }

    /** @return true if earlier attempts left acknowledged ranges to resume from */
    public boolean isResumed() {
        return !acknowledged.isEmpty();
    }
}
