package org.ferry.mover.stripe;

/**
 * The {@code Blocked} stripe layout of GFD.020 ("Options to RETR": {@code StripeLayout=Blocked;
 * BlockSize=n;}; GFD.020 "Options to RETR"): the file is cut into blocks of
 * {@code blockSizeBytes} from offset 0 of the transferred range, and block {@code i} belongs to
 * stripe {@code i mod stripeCount}. Offsets here are relative to the start of the transferred
 * range (the REST offset); the sender adds that start to put file offsets in MODE E headers.
 * Immutable.
 *
 * @param blockSizeBytes bytes per block, 1 .. 64 MiB
 * @param stripeCount number of stripes, 1 .. 1024
 */
public record StripeLayout(int blockSizeBytes, int stripeCount) {

    /** Largest accepted block size: 64 MiB, the same bound as {@code DataChannels}. */
    public static final int MAX_BLOCK_SIZE_BYTES = 64 << 20;

    /** Largest accepted stripe count. */
    public static final int MAX_STRIPES = 1024;

    /** @throws IllegalArgumentException if a value is out of range */
    public StripeLayout {
        if (blockSizeBytes < 1 || blockSizeBytes > MAX_BLOCK_SIZE_BYTES) {
            throw new IllegalArgumentException("block size must be 1..64 MiB, was " + blockSizeBytes);
        }
        if (stripeCount < 1 || stripeCount > MAX_STRIPES) {
            throw new IllegalArgumentException("stripe count must be 1.." + MAX_STRIPES + ", was " + stripeCount);
        }
    }

    /**
     * @param offset a byte offset in the transferred range, {@code >= 0}
     * @return the stripe holding that byte
     */
    public int stripeOf(long offset) {
        return (int) ((offset / blockSizeBytes) % stripeCount);
    }

    /**
     * @param stripeIndex the stripe, 0 .. stripeCount-1
     * @param k the stripe's k-th block, counted from 0
     * @return the offset of that block in the transferred range (may be past its end)
     */
    public long blockOffset(int stripeIndex, long k) {
        checkStripe(stripeIndex);
        return (k * stripeCount + stripeIndex) * blockSizeBytes;
    }

    /**
     * @param stripeIndex the stripe
     * @param length bytes in the transferred range
     * @return how many of those bytes belong to the stripe
     */
    public long stripeLength(int stripeIndex, long length) {
        checkStripe(stripeIndex);
        long fullBlocks = length / blockSizeBytes;
        long tail = length % blockSizeBytes;
        long mine = fullBlocks / stripeCount + (stripeIndex < fullBlocks % stripeCount ? 1 : 0);
        long bytes = mine * blockSizeBytes;
        if (tail > 0 && fullBlocks % stripeCount == stripeIndex) {
            bytes += tail; // the short last block is block number fullBlocks
        }
        return bytes;
    }

    private void checkStripe(int stripeIndex) {
        if (stripeIndex < 0 || stripeIndex >= stripeCount) {
            throw new IllegalArgumentException("stripe " + stripeIndex + " outside 0.." + (stripeCount - 1));
        }
    }
}
