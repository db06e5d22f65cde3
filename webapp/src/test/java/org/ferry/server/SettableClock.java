package org.ferry.server;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock a test moves forward itself: the real time plus an offset the test adds to, so that
 * "the credential's end has passed" is an event the test makes happen, not a wait for the machine
 * to be slow or fast enough. Thread-safe.
 */
final class SettableClock extends Clock {

    private volatile Duration offset = Duration.ZERO;

    /** Moves the clock forward. */
    void advance(Duration by) {
        offset = offset.plus(by);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("UTC only");
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(offset);
    }
}
