package org.ferry.mover.data;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link DataSink} into memory, each block at its offset (MODE E blocks of parallel connections
 * arrive in any order, GFD.020), held in chunks of {@link #CHUNK_BYTES} so that a growing transfer
 * is never copied to a bigger array. Bounded: a block reaching past {@code maxBytes} fails the
 * transfer with an IOException that says so, so a peer cannot make the server hold more than it
 * agreed to. Thread-safe.
 */
public final class PositionalMemorySink implements DataSink {

    /** Size of each chunk in bytes. */
    static final int CHUNK_BYTES = 1 << 20;

    private final int maxBytes;
    private final List<byte[]> chunks = new ArrayList<>();
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
        while ((long) chunks.size() * CHUNK_BYTES < end) {
            chunks.add(new byte[CHUNK_BYTES]);
        }
        int position = (int) offset;
        while (data.hasRemaining()) {
            int within = position % CHUNK_BYTES;
            int n = Math.min(data.remaining(), CHUNK_BYTES - within);
            data.get(chunks.get(position / CHUNK_BYTES), within, n);
            position += n;
        }
        length = Math.max(length, (int) end);
    }

    /** @return one past the highest offset written */
    public synchronized int length() {
        return length;
    }

    /** @return the bytes {@code [0, length())}, read once the transfer has ended */
    public synchronized InputStream inputStream() {
        List<byte[]> held = List.copyOf(chunks);
        int size = length;
        return new InputStream() {
            private int position;

            @Override
            public int read() {
                if (position >= size) {
                    return -1;
                }
                int b = held.get(position / CHUNK_BYTES)[position % CHUNK_BYTES] & 0xff;
                position++;
                return b;
            }

            @Override
            public int read(byte[] into, int offset, int count) {
                if (count == 0) {
                    return 0;
                }
                if (position >= size) {
                    return -1;
                }
                int within = position % CHUNK_BYTES;
                int n = Math.min(count, Math.min(size - position, CHUNK_BYTES - within));
                System.arraycopy(held.get(position / CHUNK_BYTES), within, into, offset, n);
                position += n;
                return n;
            }

            @Override
            public int available() {
                return size - position;
            }
        };
    }
}
