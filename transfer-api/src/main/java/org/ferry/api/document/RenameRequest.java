package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The body of {@code POST /operation/endpoint/{id}/rename}.
 *
 * @param dataType {@code rename} or absent
 * @param oldPath absolute path of the file or directory
 * @param newPath its new absolute path
 * @param localUser not supported; a value is a 400
 */
public record RenameRequest(
        @JsonProperty("DATA_TYPE") String dataType,
        @JsonProperty("old_path") String oldPath,
        @JsonProperty("new_path") String newPath,
        @JsonProperty("local_user") String localUser) {}
