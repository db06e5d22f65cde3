package org.ferry.api.command;

import java.util.List;

/**
 * What a transfer would do now ({@code POST /transfer/dry_run}): nothing stored, nothing changed.
 *
 * @param sourceEndpoint the source endpoint's canonical name
 * @param destinationEndpoint the destination endpoint's canonical name
 * @param filesToCopy files that would be copied
 * @param bytesToCopy their bytes
 * @param filesSkipped files the sync level finds current
 * @param excluded entries the filter rules exclude
 * @param skippedErrors source paths skipped for errors
 * @param deletions destination extras a mirror would delete
 * @param truncated true if {@code entries} was cut at its limit (the counts cover everything)
 * @param entries what would happen to each path, up to the limit
 * @param additionalDestinationEndpoints the canonical names of a multicast transfer's further
 *     destinations, each reached: every file to copy goes to each of them as well; empty for one
 *     destination
 */
public record DryRun(
        String sourceEndpoint,
        String destinationEndpoint,
        long filesToCopy,
        long bytesToCopy,
        long filesSkipped,
        long excluded,
        long skippedErrors,
        long deletions,
        boolean truncated,
        List<Entry> entries,
        List<String> additionalDestinationEndpoints) {

    /** Copies the lists. */
    public DryRun {
        entries = List.copyOf(entries);
        additionalDestinationEndpoints =
                additionalDestinationEndpoints == null ? List.of() : List.copyOf(additionalDestinationEndpoints);
    }

    /**
     * One path.
     *
     * @param action copy, skip, exclude, skip_error or delete
     * @param type file or dir
     * @param sourcePath the source path, or null (a deletion)
     * @param destinationPath the destination path
     * @param sizeBytes its size, where known
     */
    public record Entry(String action, String type, String sourcePath, String destinationPath, long sizeBytes) {}
}
