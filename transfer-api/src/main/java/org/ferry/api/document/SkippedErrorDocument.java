package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One path of {@code GET /task/{id}/skipped_errors}: a source path skipped because of an error
 * under {@code skip_source_errors}.
 *
 * @param dataType {@code skipped_error}
 * @param sourcePath absolute source path
 * @param destinationPath absolute destination path
 * @param errorCode e.g. {@code FILE_NOT_FOUND}, {@code PERMISSION_DENIED}
 * @param errorDetails the endpoint's reply
 * @param errorTime ISO-8601 UTC
 * @param isDirectory whether the skipped path was a directory
 */
public record SkippedErrorDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        @JsonProperty("source_path") String sourcePath,
        @JsonProperty("destination_path") String destinationPath,
        @JsonProperty("error_code") String errorCode,
        @JsonProperty("error_details") String errorDetails,
        @JsonProperty("error_time") String errorTime,
        @JsonProperty("is_directory") boolean isDirectory) {}
