package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * One page of a list paged by {@code limit}/{@code offset} ({@code task_list},
 * {@code event_list}, {@code endpoint_list}): the fields both of the Globus pagers read,
 * {@code total} (task and event lists) and {@code has_next_page} (endpoint search).
 *
 * @param dataType e.g. {@code task_list}
 * @param data the page's documents
 * @param length how many are on this page
 * @param limit the page size asked for
 * @param offset the first row of this page
 * @param total rows in all pages
 * @param hasNextPage whether rows follow this page
 * @param <T> the document type
 */
public record OffsetListDocument<T>(
        @JsonProperty("DATA_TYPE") String dataType,
        @JsonProperty("DATA") List<T> data,
        int length,
        int limit,
        long offset,
        long total,
        @JsonProperty("has_next_page") boolean hasNextPage) {

    /**
     * @param dataType e.g. {@code task_list}
     * @param data the page
     * @param limit the page size asked for
     * @param offset the page's first row
     * @param total rows in all pages
     * @return the page document
     */
    public static <T> OffsetListDocument<T> of(String dataType, List<T> data, int limit, long offset, long total) {
        return new OffsetListDocument<>(
                dataType, data, data.size(), limit, offset, total, offset + data.size() < total);
    }
}
