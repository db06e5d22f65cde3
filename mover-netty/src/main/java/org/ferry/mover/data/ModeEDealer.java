package org.ferry.mover.data;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.ferry.mover.protocol.ByteRange;

/**
 * Deals the blocks of one MODE E send over its connections (GFD.020): each connection takes the
 * next block when it has room, so a fast connection carries more blocks than a slow one. Only the
 * given ranges are dealt (a restarted send skips what the receiver already has, GFD.020
 * "Restarting"); a block never spans two ranges. Exactly one connection gets to send the EOF.
 *
 * <p>Blocks come in two sizes: a connection that reads the file into buffers takes blocks of the
 * block size (what it holds in memory); one that sends file regions (sendfile) takes larger ones,
 * which cost no memory: every block is a header written on its own, a segment of its own under
 * TCP_NODELAY, and a wake-up of the receiver (a 4 GiB download in 256 KiB blocks cost
 * globus-url-copy twice the CPU it spent on the same file in 4 MiB blocks, across hosts).
 * Thread-safe.
 */
final class ModeEDealer {

    /** A block to send: its offset in the transferred stream and its length. */
    record Block(long offset, int length) {}

    private final List<ByteRange> ranges;
    private final int blockSizeBytes;
    private final int regionBlockBytes;
    private final int connections;
    private final AtomicBoolean eofClaimed = new AtomicBoolean();
    private final AtomicInteger finished = new AtomicInteger();
    private int rangeIndex;
    private long nextOffset;

    /**
     * @param ranges the parts of the stream to send, sorted and disjoint
     * @param blockSizeBytes largest block, whatever a connection sends
     * @param connections number of connections (the EOF's EOD count)
     */
    ModeEDealer(List<ByteRange> ranges, int blockSizeBytes, int connections) {
        this(ranges, blockSizeBytes, blockSizeBytes, connections);
    }

    /**
     * @param ranges the parts of the stream to send, sorted and disjoint
     * @param blockSizeBytes largest block read into a buffer
     * @param regionBlockBytes largest block sent as a file region, at least {@code blockSizeBytes}
     * @param connections number of connections (the EOF's EOD count)
     */
    ModeEDealer(List<ByteRange> ranges, int blockSizeBytes, int regionBlockBytes, int connections) {
        this.ranges = List.copyOf(ranges);
        this.blockSizeBytes = blockSizeBytes;
        this.regionBlockBytes = Math.max(blockSizeBytes, regionBlockBytes);
        this.connections = connections;
        this.nextOffset = this.ranges.isEmpty() ? 0 : this.ranges.get(0).start();
    }

    /** @return the next block to send, at most the block size, or null when all blocks are dealt */
    Block claimBlock() {
        return claimBlock(false);
    }

    /**
     * @param region true for a connection that sends file regions: the larger block size
     * @return the next block to send, or null when all blocks are dealt
     */
    synchronized Block claimBlock(boolean region) {
        if (!hasBlocks()) {
            return null;
        }
        int most = region ? regionBlockBytes : blockSizeBytes;
        int length = (int) Math.min(most, ranges.get(rangeIndex).end() - nextOffset);
        Block block = new Block(nextOffset, length);
        nextOffset += length;
        return block;
    }

    /**
     * @return true if {@link #claimBlock} would deal another block; once false, false for good (a
     *     connection that sees false after its claim holds the last block it will send)
     */
    synchronized boolean hasBlocks() {
        while (rangeIndex < ranges.size()
                && nextOffset >= ranges.get(rangeIndex).end()) {
            rangeIndex++;
            if (rangeIndex < ranges.size()) {
                nextOffset = ranges.get(rangeIndex).start();
            }
        }
        return rangeIndex < ranges.size();
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
