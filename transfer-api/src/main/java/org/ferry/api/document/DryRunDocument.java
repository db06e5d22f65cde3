package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The answer of {@code POST /transfer/dry_run}: what a transfer document would do now, found by
 * crawling both endpoints as the task would (sync level, filter rules, delete_destination_extra),
 * without changing anything on either endpoint.
 *
 * @param dataType {@code transfer_dry_run}
 * @param sourceEndpoint source endpoint canonical name
 * @param destinationEndpoint destination endpoint canonical name
 * @param filesToCopy files that would be copied
 * @param bytesToCopy their bytes
 * @param filesToSkip files already current at the destination under the sync level
 * @param filesExcluded files and directories left out by the filter rules
 * @param skippedErrors source paths that would be skipped for errors ({@code skip_source_errors})
 * @param pathsToDelete destination files and directories that would be deleted (a directory
 *     counts once, with what is under it)
 * @param truncated true if {@code DATA} stops before the counters' end (they stay complete)
 * @param entries what would happen to each path, in crawl order
 * @param additionalDestinationEndpoints Ferry's multicast extension: the further destinations'
 *     canonical names, each of which gets every file to copy as well ({@code files_to_copy} and
 *     {@code bytes_to_copy} count one destination); absent for one destination
 */
public record DryRunDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        @JsonProperty("source_endpoint") String sourceEndpoint,
        @JsonProperty("destination_endpoint") String destinationEndpoint,
        @JsonProperty("files_to_copy") long filesToCopy,
        @JsonProperty("bytes_to_copy") long bytesToCopy,
        @JsonProperty("files_to_skip") long filesToSkip,
        @JsonProperty("files_excluded") long filesExcluded,
        @JsonProperty("skipped_errors") long skippedErrors,
        @JsonProperty("paths_to_delete") long pathsToDelete,
        boolean truncated,
        @JsonProperty("DATA") List<Entry> entries,

        @JsonProperty("ferry_additional_destination_endpoints")
        @com.fasterxml.jackson.annotation.JsonInclude(JsonInclude.Include.NON_EMPTY)
        List<String> additionalDestinationEndpoints) {

    /**
     * One path.
     *
     * @param dataType {@code dry_run_entry}
     * @param action {@code copy}, {@code skip} (current under the sync level), {@code exclude}
     *     (filter rules), {@code skip_error} (source error under {@code skip_source_errors}) or
     *     {@code delete} (a destination extra)
     * @param type {@code file} or {@code dir}
     * @param sourcePath the source path, or null for {@code delete}
     * @param destinationPath the destination path
     * @param size bytes of a file to copy or skip, else 0
     */
    public record Entry(
            @JsonProperty("DATA_TYPE") String dataType,
            String action,
            String type,
            @JsonProperty("source_path") String sourcePath,
            @JsonProperty("destination_path") String destinationPath,
            long size) {}
}
