package org.ferry.mover.data;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.List;
import org.ferry.mover.protocol.ByteRange;

/**
 * What a sending data transfer reads: a byte range of a file, or bytes in memory (listings, tar
 * batches).
 * Implementations are used from I/O threads by one transfer at a time.
 */
public interface DataSource {

    /** @return number of bytes this source will deliver */
    long length();

    /**
     * @return the file channel to read from, or {@code null} for an in-memory source (see {@link #bytes()})
     */
    FileChannel fileChannel();

    /** @return absolute file offset of the first byte to send; 0 for in-memory sources */
    long fileOffset();

    /** @return the bytes of an in-memory source, or {@code null} for a file source */
    byte[] bytes();

    /**
     * @return the buffer of a buffer source (its readable bytes are the source), or {@code null}
     *     for other sources
     */
    default ByteBuf buffer() {
        return null;
    }

    /**
     * The parts of {@code [0, length())} to send in MODE E, sorted and disjoint: all of it, except
     * for a restarted send, which skips the ranges the receiver already has (REST a-b,c-d,
     * GFD.020 "Restarting"). Stream mode always sends everything.
     *
     * @return the ranges to send, offsets relative to {@link #fileOffset()}
     */
    default List<ByteRange> ranges() {
        return length() == 0 ? List.of() : List.of(new ByteRange(0, length()));
    }

    /**
     * A byte range of an open file. The channel is not closed by the transfer.
     *
     * @param channel open for reading
     * @param offset absolute offset of the first byte (REST/ERET start)
     * @param length number of bytes to send
     * @return the source
     */
    static DataSource ofFile(FileChannel channel, long offset, long length) {
        return new DataSource() {
            @Override
            public long length() {
                return length;
            }

            @Override
            public FileChannel fileChannel() {
                return channel;
            }

            @Override
            public long fileOffset() {
                return offset;
            }

            @Override
            public byte[] bytes() {
                return null;
            }
        };
    }

    /**
     * Parts of an open file, for a restarted MODE E send. The channel is not closed by the transfer.
     *
     * @param channel open for reading
     * @param length the file length (block offsets are file offsets)
     * @param ranges the ranges still to send, e.g. {@link ByteRange#missing}; sorted and disjoint
     * @return the source
     * @throws IllegalArgumentException if a range ends beyond {@code length}
     */
    static DataSource ofFileRanges(FileChannel channel, long length, List<ByteRange> ranges) {
        List<ByteRange> merged = ByteRange.merge(ranges);
        if (!merged.isEmpty() && merged.get(merged.size() - 1).end() > length) {
            throw new IllegalArgumentException("range beyond the end " + length + ": " + merged);
        }
        return new DataSource() {
            @Override
            public long length() {
                return length;
            }

            @Override
            public FileChannel fileChannel() {
                return channel;
            }

            @Override
            public long fileOffset() {
                return 0;
            }

            @Override
            public byte[] bytes() {
                return null;
            }

            @Override
            public List<ByteRange> ranges() {
                return merged;
            }
        };
    }

    /** @return an in-memory source (e.g. an MLSD listing) */
    static DataSource ofBytes(byte[] data) {
        return new DataSource() {
            @Override
            public long length() {
                return data.length;
            }

            @Override
            public FileChannel fileChannel() {
                return null;
            }

            @Override
            public long fileOffset() {
                return 0;
            }

            @Override
            public byte[] bytes() {
                return data;
            }
        };
    }

    /**
     * A source over a buffer's readable bytes, sent as slices of it (no copy; a direct buffer goes to
     * the socket as it is). The caller keeps its reference and releases it once the transfer ended.
     *
     * @param buffer the bytes to send
     * @return the source
     */
    static DataSource ofBuffer(ByteBuf buffer) {
        return new DataSource() {
            @Override
            public long length() {
                return buffer.readableBytes();
            }

            @Override
            public FileChannel fileChannel() {
                return null;
            }

            @Override
            public long fileOffset() {
                return 0;
            }

            @Override
            public byte[] bytes() {
                return null;
            }

            @Override
            public ByteBuf buffer() {
                return buffer;
            }
        };
    }

    /** Convenience for callers that open and own the channel. @throws IOException if size() fails */
    static DataSource ofWholeFile(FileChannel channel) throws IOException {
        return ofFile(channel, 0, channel.size());
    }
}
