package org.ferry.api.web;

import org.ferry.api.service.ApiException;

/** Checks {@code limit}/{@code offset} query parameters. */
final class Paging {

    private Paging() {}

    /**
     * @return the limit
     * @throws ApiException 400 naming {@code limit} unless 1..max
     */
    static int limit(int limit, int max) {
        if (limit < 1 || limit > max) {
            throw ApiException.badRequest("limit", "limit must be 1-" + max);
        }
        return limit;
    }

    /**
     * @return the offset
     * @throws ApiException 400 naming {@code offset} if negative
     */
    static int offset(int offset) {
        if (offset < 0) {
            throw ApiException.badRequest("offset", "offset must not be negative");
        }
        return offset;
    }
}
