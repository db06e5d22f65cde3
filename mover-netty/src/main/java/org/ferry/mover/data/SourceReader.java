package org.ferry.mover.data;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.io.EOFException;
import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * Turns byte ranges of a {@link DataSource} into something a channel can write: a pooled direct
 * buffer filled by positional reads (MODE E blocks, which need a header in front and will need
 * TLS later), a zero-copy file region (stream mode), or a wrapped slice of an in-memory source.
 * Positional reads make it safe for several connections to read one file concurrently.
 */
final class SourceReader {

    private final DataSource source;

    SourceReader(DataSource source) {
        this.source = source;
    }

    /** @return bytes the source delivers */
    long length() {
        return source.length();
    }

    /**
     * Reads {@code [offset, offset + length)} of the source into a buffer the caller must release.
     *
     * @throws IOException if the read fails or the file is shorter than the source claims
     */
    ByteBuf readBuffer(ByteBufAllocator alloc, long offset, int length) throws IOException {
        FileChannel file = source.fileChannel();
        if (file == null) {
            ByteBuf buffer = source.buffer();
            return buffer != null ? buffer.retainedSlice(buffer.readerIndex() + Math.toIntExact(offset), length)
                    : Unpooled.wrappedBuffer(source.bytes(), Math.toIntExact(offset), length);
        }
        ByteBuf buf = alloc.directBuffer(length);
        try {
            long position = source.fileOffset() + offset;
            while (buf.writerIndex() < length) {
                int n = buf.writeBytes(file, position + buf.writerIndex(), length - buf.writerIndex());
                if (n < 0) {
                    throw new EOFException("file ended at " + (position + buf.writerIndex())
                            + " before the " + source.length() + " bytes to send");
                }
            }
            return buf;
        } catch (IOException | RuntimeException e) {
            buf.release();
            throw e;
        }
    }

    /** @return a zero-copy region (file source) or a buffer (memory source) for the range */
    Object readRegion(ByteBufAllocator alloc, long offset, int length) throws IOException {
        FileChannel file = source.fileChannel();
        if (file == null) {
            return readBuffer(alloc, offset, length);
        }
        return new FileRangeRegion(file, source.fileOffset() + offset, length);
    }
}
