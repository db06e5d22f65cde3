package org.ferry.scheduler.state;

/**
 * A file row the planner writes.
 *
 * @param sourcePath absolute source path
 * @param destinationPath absolute destination path
 * @param sizeBytes source size
 * @param skippedCode null for a file to move; the fault code of a source error skipped with
 *     {@code skip_source_errors}
 * @param skippedDescription what the source said, for a skipped path
 */
public record PlannedFile(
        String sourcePath, String destinationPath, long sizeBytes, String skippedCode, String skippedDescription) {

    /** @return a file to move */
    public static PlannedFile toMove(String sourcePath, String destinationPath, long sizeBytes) {
        return new PlannedFile(sourcePath, destinationPath, sizeBytes, null, null);
    }
}
