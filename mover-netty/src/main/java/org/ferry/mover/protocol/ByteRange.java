package org.ferry.mover.protocol;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A byte range {@code [start, end)} of a file, start inclusive and end exclusive, as in GridFTP
 * restart markers ({@code 111 Range Marker a-b,c-d}) and MODE E restarts ({@code REST a-b,c-d})
 * (GFD.020 "Restarting").
 *
 * @param start offset of the first byte (0..end)
 * @param end offset after the last byte
 */
public record ByteRange(long start, long end) {

    /** @throws IllegalArgumentException if {@code start < 0} or {@code end < start} */
    public ByteRange {
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("bad byte range " + start + "-" + end);
        }
    }

    /** @return {@code end - start} */
    public long length() {
        return end - start;
    }

    /**
     * Parses {@code a-b,c-d,...} (the argument of REST or of a 111 marker).
     *
     * @param text the ranges; blanks around commas are tolerated
     * @return the ranges in the order given (not merged)
     * @throws IllegalArgumentException if the text is not such a list, or a range ends before it starts
     */
    public static List<ByteRange> parseList(String text) {
        List<ByteRange> ranges = new ArrayList<>();
        for (String part : text.strip().split(",")) {
            String range = part.strip();
            int dash = range.indexOf('-');
            if (dash <= 0 || dash == range.length() - 1) {
                throw new IllegalArgumentException("not a byte range: '" + range + "'");
            }
            try {
                ranges.add(new ByteRange(
                        Long.parseLong(range.substring(0, dash)), Long.parseLong(range.substring(dash + 1))));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a byte range: '" + range + "'", e);
            }
        }
        return ranges;
    }

    /**
     * @param ranges any ranges
     * @return {@code a-b,c-d} of the ranges as given; empty text for no range
     */
    public static String format(List<ByteRange> ranges) {
        StringBuilder sb = new StringBuilder();
        for (ByteRange range : ranges) {
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            sb.append(range.start).append('-').append(range.end);
        }
        return sb.toString();
    }

    /**
     * @param ranges any ranges, overlapping or touching allowed (markers may overlap, section 2.6)
     * @return the same bytes as sorted, disjoint, non-touching, non-empty ranges
     */
    public static List<ByteRange> merge(List<ByteRange> ranges) {
        List<ByteRange> sorted = new ArrayList<>(ranges);
        sorted.removeIf(r -> r.length() == 0);
        sorted.sort(Comparator.comparingLong(ByteRange::start));
        List<ByteRange> merged = new ArrayList<>();
        for (ByteRange range : sorted) {
            ByteRange last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && range.start <= last.end) {
                merged.set(merged.size() - 1, new ByteRange(last.start, Math.max(last.end, range.end)));
            } else {
                merged.add(range);
            }
        }
        return merged;
    }

    /**
     * @param done ranges already transferred (any order, overlaps allowed)
     * @param length the file length
     * @return the ranges of {@code [0, length)} not covered by {@code done}, sorted
     */
    public static List<ByteRange> missing(List<ByteRange> done, long length) {
        List<ByteRange> missing = new ArrayList<>();
        long position = 0;
        for (ByteRange range : merge(done)) {
            if (range.start >= length) {
                break;
            }
            if (range.start > position) {
                missing.add(new ByteRange(position, range.start));
            }
            position = Math.max(position, range.end);
        }
        if (position < length) {
            missing.add(new ByteRange(position, length));
        }
        return missing;
    }

    /**
     * @param done ranges already transferred
     * @return the length of the prefix from 0 they cover without a gap (a stream mode restart offset)
     */
    public static long prefix(List<ByteRange> done) {
        List<ByteRange> merged = merge(done);
        return merged.isEmpty() || merged.get(0).start > 0 ? 0 : merged.get(0).end;
    }
}
