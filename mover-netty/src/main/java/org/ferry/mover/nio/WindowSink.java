package org.ferry.mover.nio;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.ferry.mover.data.DataSink;

/**
 * Where one partial retrieve lands: a byte array, each block at its offset in the window (MODE E
 * blocks of parallel connections arrive in any order, GFD.020; the data channels write from several
 * threads at distinct offsets, which needs no lock). A block reaching past the window fails the
 * transfer: the server sent more than was asked.
 */
final class WindowSink implements DataSink {

    private final byte[] bytes;
    private final int capacity;

    /**
     * @param bytes the array to fill from index 0
     * @param capacity the window's length, at most {@code bytes.length}
     */
    WindowSink(byte[] bytes, int capacity) {
        this.bytes = bytes;
        this.capacity = capacity;
    }

    @Override
    public void write(ByteBuffer data, long offset) throws IOException {
        int length = data.remaining();
        if (offset < 0 || offset + length > capacity) {
            throw new IOException("the server sent bytes " + offset + ".." + (offset + length) + " of a window of "
                    + capacity + " bytes");
        }
        data.get(bytes, (int) offset, length);
    }
}
