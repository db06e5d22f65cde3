package org.ferry.api.service;

import org.ferry.api.error.InvalidRequestException;

/** Checks {@code limit}/{@code offset} parameters. */
public final class Paging {

    private Paging() {}

    /**
     * @param limit the page size asked for, or null for the default
     * @param defaultLimit the default
     * @param max the largest allowed
     * @return the limit
     * @throws InvalidRequestException naming {@code limit} unless 1..max
     */
    public static int limit(Integer limit, int defaultLimit, int max) {
        int value = limit == null ? defaultLimit : limit;
        if (value < 1 || value > max) {
            throw new InvalidRequestException("limit", "limit must be 1-" + max);
        }
        return value;
    }

    /**
     * @param offset the first row asked for, or null for 0
     * @return the offset
     * @throws InvalidRequestException naming {@code offset} if negative
     */
    public static int offset(Integer offset) {
        int value = offset == null ? 0 : offset;
        if (value < 0) {
            throw new InvalidRequestException("offset", "offset must not be negative");
        }
        return value;
    }
}
