package org.ferry.server.pages;

import java.time.Duration;
import java.time.Instant;
import java.util.function.LongSupplier;

/**
 * The bytes a running task still has to move, for a live view's time left: read from the database
 * (a sum over the task's open file rows, which for a million-file task is a million index entries)
 * at most once every {@link #REREAD}, and in between estimated as the last reading less the bytes
 * the task moved since. A live view updates about once a second per reader, so reading the sum
 * every time would cost a scan per reader per second. Not thread-safe: one per reader, used under
 * its lock.
 */
final class BytesLeft {

    /** How long a reading stands before it is read again. */
    static final Duration REREAD = Duration.ofSeconds(10);

    private long measured = -1;
    private long movedAtReading;
    private Instant readAt = Instant.MIN;

    /**
     * @param now the time of this update
     * @param moved the task's bytes moved so far (arrived and in flight), as the view shows them
     * @param read reads the bytes left from the database
     * @return bytes left to move, never negative
     */
    long get(Instant now, long moved, LongSupplier read) {
        if (measured < 0 || !now.isBefore(readAt.plus(REREAD)) || moved < movedAtReading) {
            // first use, stale, or the count went back (a file started again): read anew
            measured = read.getAsLong();
            movedAtReading = moved;
            readAt = now;
            return measured;
        }
        return Math.max(0, measured - (moved - movedAtReading));
    }
}
