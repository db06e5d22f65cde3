package org.ferry.mover.data;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Deals the blocks of one MODE E send over its connections (GFD.020): each connection takes the
 * next block when it has room, so a fast connection carries more blocks than a slow one. Exactly
 * one connection gets to send the EOF. Thread-safe.
 */
final class ModeEDealer {

    private final long length;
    private final int blockSizeBytes;
    private final int connections;
    private final AtomicLong nextOffset = new AtomicLong();
    private final AtomicBoolean eofClaimed = new AtomicBoolean();
    private final AtomicInteger finished = new AtomicInteger();

    ModeEDealer(long length, int blockSizeBytes, int connections) {
        this.length = length;
        this.blockSizeBytes = blockSizeBytes;
        this.connections = connections;
    }

    /** @return the offset of the next block to send, or -1 when all blocks are dealt */
    long claimBlock() {
        long offset = nextOffset.getAndAdd(blockSizeBytes);
        return offset < length ? offset : -1;
    }

    /** @return the length of the block at {@code offset} */
    int blockLength(long offset) {
        return (int) Math.min(blockSizeBytes, length - offset);
    }

    /** @return true for exactly one caller: the connection that sends EOF */
    boolean claimEof() {
        return eofClaimed.compareAndSet(false, true);
    }

    /** @return the number of connections, the EOF header's EOD count */
    int connections() {
        return connections;
    }

    /** @return true when the last connection has finished */
    boolean connectionFinished() {
        return finished.incrementAndGet() == connections;
    }
}
