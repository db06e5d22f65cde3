package org.ferry.mover.data;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A {@link DataSink} into a growing byte array, each block at its offset (MODE E blocks of parallel
 * connections arrive in any order, GFD.020). Bounded: a block reaching past {@code maxBytes} fails
 * the transfer with an IOException that says so, so a peer cannot make the server hold more than
 * it agreed to. Thread-safe.
 */
public final class PositionalMemorySink implements DataSink {

    private final int maxBytes;
    private byte[] bytes = new byte[64 * 1024];
    private int length;

    PositionalMemorySink(int maxBytes) {
        if (maxBytes < 0 || maxBytes > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("maxBytes out of range: " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    @Override
    public synchronized void write(ByteBuffer data, long offset) throws IOException {
        long end = offset + data.remaining();
        if (offset < 0 || end > maxBytes) {
            throw new IOException("data past the " + maxBytes + "-byte limit of this transfer (block at " + offset
                    + ", " + data.remaining() + " bytes)");
        }
        if (end > bytes.length) {
            bytes = Arrays.copyOf(bytes, (int) Math.min(maxBytes, Math.max(end, 2L * bytes.length)));
        }
        data.get(bytes, (int) offset, data.remaining());
        length = Math.max(length, (int) end);
    }

    /** @return the array holding the bytes (longer than {@link #length()}); not a copy */
    public synchronized byte[] array() {
        return bytes;
    }

    /** @return one past the highest offset written */
    public synchronized int length() {
        return length;
    }
}
