package org.ferry.api.service;

import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;

/**
 * A {@link Pageable} from the API's {@code limit}/{@code offset} (Spring's PageRequest knows only
 * page numbers, which cannot express an offset that is not a multiple of the limit).
 */
final class OffsetPage implements Pageable {

    private final long offset;
    private final int limit;
    private final Sort sort;

    /**
     * @param offset first row, at least 0
     * @param limit rows, at least 1
     * @param sort order
     */
    OffsetPage(long offset, int limit, Sort sort) {
        this.offset = offset;
        this.limit = limit;
        this.sort = sort;
    }

    @Override
    public int getPageNumber() {
        return (int) (offset / limit);
    }

    @Override
    public int getPageSize() {
        return limit;
    }

    @Override
    public long getOffset() {
        return offset;
    }

    @Override
    public Sort getSort() {
        return sort;
    }

    @Override
    public Pageable next() {
        return new OffsetPage(offset + limit, limit, sort);
    }

    @Override
    public Pageable previousOrFirst() {
        return new OffsetPage(Math.max(0, offset - limit), limit, sort);
    }

    @Override
    public Pageable first() {
        return new OffsetPage(0, limit, sort);
    }

    @Override
    public Pageable withPage(int pageNumber) {
        return new OffsetPage((long) pageNumber * limit, limit, sort);
    }

    @Override
    public boolean hasPrevious() {
        return offset > 0;
    }
}
