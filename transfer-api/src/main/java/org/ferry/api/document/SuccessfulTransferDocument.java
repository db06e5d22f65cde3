package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One file of {@code GET /task/{id}/successful_transfers}: a file that arrived (not one the
 * sync level skipped, not a directory).
 *
 * @param dataType {@code successful_transfer}
 * @param sourcePath absolute source path
 * @param destinationPath absolute destination path
 * @param size bytes
 * @param checksumAlgorithm {@code MD5} when the task verified checksums, else null
 * @param checksum the checksum the mover verified (hex), else null
 */
public record SuccessfulTransferDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        @JsonProperty("source_path") String sourcePath,
        @JsonProperty("destination_path") String destinationPath,
        long size,
        @JsonProperty("checksum_algorithm") String checksumAlgorithm,
        String checksum) {}
