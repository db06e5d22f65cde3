package org.ferry.mover.data;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Where a receiving data transfer writes. MODE E blocks arrive out of order across connections,
 * so every write carries its offset in the transferred byte stream (0 = first byte of the transfer;
 * the sink adds its own base offset, e.g. for REST or ESTO A). May be called from several I/O
 * threads at once: implementations must tolerate concurrent writes at distinct offsets.
 */
public interface DataSink {

    /**
     * Writes one block.
     *
     * @param data the bytes; read fully before returning; not retained
     * @param offset position of {@code data}'s first byte in the transferred stream
     * @throws IOException if the write fails (disk full, closed)
     */
    void write(ByteBuffer data, long offset) throws IOException;

    /**
     * A sink writing into an open file at {@code baseOffset + offset} with positional writes.
     * The channel is not closed by the transfer.
     */
    static DataSink toFile(FileChannel channel, long baseOffset) {
        // One write at a time per file: the kernel serializes buffered writes to a file on its inode
        // lock anyway, and spins while it waits (seen: an eighth of a receiver's CPU with p=4); a
        // Java lock parks the waiting event loop instead.
        ReentrantLock lock = new ReentrantLock();
        return (data, offset) -> {
            long position = baseOffset + offset;
            lock.lock();
            try {
                while (data.hasRemaining()) {
                    position += channel.write(data, position);
                }
            } finally {
                lock.unlock();
            }
        };
    }

    /**
     * An in-memory sink for listings; {@link MemorySink#toByteArray()} gives the bytes in offset
     * order (stream mode and single-connection MODE E deliver in order).
     */
    static MemorySink toMemory() {
        return new MemorySink();
    }

    /**
     * An in-memory sink that places each block at its offset, so MODE E blocks from parallel
     * connections may arrive in any order; refuses to hold more than {@code maxBytes}.
     *
     * @param maxBytes the most bytes the transfer may carry (at most {@code Integer.MAX_VALUE - 8})
     */
    static PositionalMemorySink toMemory(int maxBytes) {
        return new PositionalMemorySink(maxBytes);
    }

    /** Collects received bytes in memory (listings are small). */
    final class MemorySink implements DataSink {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        @Override
        public synchronized void write(ByteBuffer data, long offset) {
            byte[] chunk = new byte[data.remaining()];
            data.get(chunk);
            out.write(chunk, 0, chunk.length);
        }

        /** @return everything written so far */
        public synchronized byte[] toByteArray() {
            return out.toByteArray();
        }
    }
}
