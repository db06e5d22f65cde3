package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * An endpoint's optimizer limits ({@code GET/PUT /endpoint/{id}/optimizer_limits};
 * docs/optimizer.md). In a request, {@code DATA_TYPE} and {@code endpoint_id} may be left out, and
 * a null or absent limit takes the server's default.
 *
 * @param dataType {@code optimizer_limits}
 * @param endpointId the endpoint
 * @param minConcurrency fewest session pairs kept between this endpoint and another, or null
 * @param maxConcurrency most session pairs between this endpoint and another, or null
 * @param maxParallelism most data connections per file, or null
 */
public record OptimizerLimitsDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        @JsonProperty("endpoint_id") String endpointId,
        @JsonProperty("min_concurrency") Integer minConcurrency,
        @JsonProperty("max_concurrency") Integer maxConcurrency,
        @JsonProperty("max_parallelism") Integer maxParallelism) {}
