package org.ferry.api.store;

import java.time.Instant;

/**
 * A file row the planner writes.
 *
 * @param sourcePath absolute source path
 * @param destinationPath absolute destination path
 * @param sizeBytes source size
 * @param sourceModified the source's modification time as listed ({@code Modify} fact), or null
 *     when the source gave none or for a skipped path
 * @param skippedCode null for a file to move; the fault code of a source error skipped with
 *     {@code skip_source_errors}
 * @param skippedDescription what the source said, for a skipped path
 * @param externalChecksum the hex checksum the user gave for the file (a file item's {@code
 *     external_checksum}), or null
 */
public record PlannedFile(
        String sourcePath,
        String destinationPath,
        long sizeBytes,
        Instant sourceModified,
        String skippedCode,
        String skippedDescription,
        String externalChecksum) {

    /** @return a file to move */
    public static PlannedFile toMove(
            String sourcePath, String destinationPath, long sizeBytes, Instant sourceModified) {
        return toMove(sourcePath, destinationPath, sizeBytes, sourceModified, null);
    }

    /** @return a file to move whose destination checksum must equal {@code externalChecksum} (when not null) */
    public static PlannedFile toMove(
            String sourcePath,
            String destinationPath,
            long sizeBytes,
            Instant sourceModified,
            String externalChecksum) {
        return new PlannedFile(sourcePath, destinationPath, sizeBytes, sourceModified, null, null, externalChecksum);
    }

    /** @return a source path skipped for a source error ({@code skip_source_errors}) */
    public static PlannedFile skipped(String sourcePath, String destinationPath, String code, String description) {
        return new PlannedFile(sourcePath, destinationPath, 0, null, code, description, null);
    }
}
