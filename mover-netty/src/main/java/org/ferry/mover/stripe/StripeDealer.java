package org.ferry.mover.stripe;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Deals one stripe's blocks ({@link StripeLayout}) over that stripe's MODE E connections: each
 * connection takes the stripe's next block when it has room. At most one connection sends the
 * EOF, and only if the stripe announces one ({@code eofCount > 0}). Thread-safe.
 */
final class StripeDealer {

    private final StripeLayout layout;
    private final int stripeIndex;
    private final long length;
    private final int connections;
    private final long eofCount;
    private final AtomicLong nextBlock = new AtomicLong();
    private final AtomicBoolean eofClaimed = new AtomicBoolean();
    private final AtomicInteger finished = new AtomicInteger();

    StripeDealer(StripeLayout layout, int stripeIndex, long length, int connections, long eofCount) {
        this.layout = layout;
        this.stripeIndex = stripeIndex;
        this.length = length;
        this.connections = connections;
        this.eofCount = eofCount;
    }

    /** @return the offset of the stripe's next block, or -1 when all are dealt */
    long claimBlock() {
        long offset = layout.blockOffset(stripeIndex, nextBlock.getAndIncrement());
        return offset < length ? offset : -1;
    }

    int blockLength(long offset) {
        return (int) Math.min(layout.blockSizeBytes(), length - offset);
    }

    /** @return the EOD count to put in this connection's EOF header, or 0 to send a plain EOD */
    long claimEof() {
        return eofCount > 0 && eofClaimed.compareAndSet(false, true) ? eofCount : 0;
    }

    /** @return true when the last connection has finished */
    boolean connectionFinished() {
        return finished.incrementAndGet() == connections;
    }
}
