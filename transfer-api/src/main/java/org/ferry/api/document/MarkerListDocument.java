package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * One page of a list paged by an opaque marker ({@code successful_transfers},
 * {@code skipped_errors}): pass {@code next_marker} as {@code marker} to get the next page; a
 * null {@code next_marker} ends the list.
 *
 * @param dataType e.g. {@code successful_transfers}
 * @param marker the marker this page was asked with, or null for the first page
 * @param nextMarker the marker of the next page, or null on the last
 * @param data the page's documents
 * @param <T> the document type
 */
public record MarkerListDocument<T>(
        @JsonProperty("DATA_TYPE") String dataType,
        String marker,
        @JsonProperty("next_marker") String nextMarker,
        @JsonProperty("DATA") List<T> data) {}
