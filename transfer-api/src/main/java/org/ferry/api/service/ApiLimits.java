package org.ferry.api.service;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The documented limits on what one request may ask ({@code ferry.api.*} properties).
 *
 * @param maxItemsPerTask most {@code DATA[]} entries of one transfer or delete document
 *     ({@code ferry.api.max-items-per-task}, default 100000)
 * @param maxRequestBytes largest request body ({@code ferry.api.max-request-bytes}, default 32 MiB)
 * @param markerPageSize rows per page of the marker-paged lists ({@code successful_transfers},
 *     {@code skipped_errors}; {@code ferry.api.marker-page-size}, default 1000)
 */
@Component
public record ApiLimits(
        @Value("${ferry.api.max-items-per-task:100000}") int maxItemsPerTask,
        @Value("${ferry.api.max-request-bytes:33554432}") long maxRequestBytes,
        @Value("${ferry.api.marker-page-size:1000}") int markerPageSize) {}
