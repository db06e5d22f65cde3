package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One optimizer decision for an endpoint pair ({@code GET /optimizer/current},
 * {@code /optimizer/evolution}; FTS3's fields under Ferry's names, docs/optimizer.md).
 *
 * @param dataType {@code optimizer_decision}
 * @param sourceEndpointId the pair's source
 * @param destinationEndpointId the pair's destination
 * @param decisionTime when (ISO-8601)
 * @param throughputBytesPerSecond the interval's throughput
 * @param throughputEmaBytesPerSecond its exponential moving average
 * @param successRate percent of the interval's finished files that succeeded
 * @param filesSucceeded files that arrived in the interval
 * @param filesFailed transient faults in the interval
 * @param previousConcurrency session pairs before
 * @param concurrency session pairs from now on
 * @param parallelism data connections per file from now on
 * @param minConcurrency the range's lower end
 * @param maxConcurrency the range's upper end
 * @param reason why
 */
public record OptimizerDecisionDocument(
        @JsonProperty("DATA_TYPE") String dataType,
        @JsonProperty("source_endpoint_id") String sourceEndpointId,
        @JsonProperty("destination_endpoint_id") String destinationEndpointId,
        @JsonProperty("decision_time") String decisionTime,
        @JsonProperty("throughput_bytes_per_second") double throughputBytesPerSecond,
        @JsonProperty("throughput_ema_bytes_per_second") double throughputEmaBytesPerSecond,
        @JsonProperty("success_rate") double successRate,
        @JsonProperty("files_succeeded") int filesSucceeded,
        @JsonProperty("files_failed") int filesFailed,
        @JsonProperty("previous_concurrency") int previousConcurrency,
        int concurrency,
        int parallelism,
        @JsonProperty("min_concurrency") int minConcurrency,
        @JsonProperty("max_concurrency") int maxConcurrency,
        String reason) {}
