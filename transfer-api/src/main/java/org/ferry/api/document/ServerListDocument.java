package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * {@code GET /endpoint/{id}/server_list}.
 *
 * @param dataType {@code endpoint_server_list}
 * @param endpoint the endpoint's canonical name
 * @param data its servers
 */
public record ServerListDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        String endpoint,
        @JsonProperty("DATA") List<ServerDocument> data) {}
