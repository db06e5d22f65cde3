package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * The body of {@code POST /operation/endpoint/{id}/mkdir}.
 *
 * @param dataType {@code mkdir} or absent
 * @param path absolute path of the directory to create (its parent must exist)
 * @param localUser not supported (GCSv5 identity mapping); a value is a 400
 */
public record MkdirRequest(
        @JsonProperty("DATA_TYPE") String dataType,
        String path,
        @JsonProperty("local_user") String localUser) {}
