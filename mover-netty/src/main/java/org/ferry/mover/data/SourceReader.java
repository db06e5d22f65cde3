package org.ferry.mover.data;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.io.EOFException;
import java.io.IOException;
import java.nio.channels.FileChannel;

/**
 * Turns byte ranges of a {@link DataSource} into something a channel can write: a zero-copy file
 * region (sendfile) of a file source on a clear connection; a pooled direct buffer filled by one
 * positional read when a handler in front must see the bytes (PROT S/P TLS); a slice of an
 * in-memory source. Positional reads make it safe for several connections to read one file
 * concurrently.
 */
final class SourceReader {

    private final DataSource source;
    private final boolean buffers;
    private final boolean copyForLocalPeers;

    /**
     * @param source  the bytes to send
     * @param buffers true when a handler in front must see the bytes (PROT S/P TLS): file ranges
     *                are read into buffers instead of going as file regions
     * @param copyForLocalPeers true to read file ranges into buffers for a receiver on this host
     *                (see {@link ModeESender})
     */
    SourceReader(DataSource source, boolean buffers, boolean copyForLocalPeers) {
        this.source = source;
        this.buffers = buffers;
        this.copyForLocalPeers = copyForLocalPeers;
    }

    /**
     * @param channel a connected data connection
     * @return true if ranges for it are to be read into buffers, not sent as file regions
     */
    boolean copiesFor(io.netty.channel.Channel channel) {
        return buffers || (copyForLocalPeers && DataConnections.peerOnThisHost(channel));
    }

    /** @return true for a file source (not bytes in memory) */
    boolean readsFile() {
        return source.fileChannel() != null;
    }

    /** @return true if {@link #read} returns buffers even for a file source */
    boolean readsBuffers() {
        return buffers;
    }

    /** @return bytes the source delivers */
    long length() {
        return source.length();
    }

    /**
     * @return {@code [offset, offset + length)} of the source as a {@link FileRangeRegion} or a
     *     {@link ByteBuf}, which the caller writes (or releases)
     * @throws IOException if the read fails or the file is shorter than the source claims
     */
    Object read(ByteBufAllocator alloc, long offset, int length) throws IOException {
        return read(alloc, offset, length, false);
    }

    /**
     * @param copy true to read a file range into a buffer even where a file region could go (the
     *     peer is on this host: see {@link ModeESender})
     * @return like {@link #read(ByteBufAllocator, long, int)}
     * @throws IOException like it
     */
    Object read(ByteBufAllocator alloc, long offset, int length, boolean copy) throws IOException {
        FileChannel file = source.fileChannel();
        if (file != null && !readsFileIntoBuffers(copy)) {
            return new FileRangeRegion(file, source.fileOffset() + offset, length);
        }
        return readBuffer(alloc, offset, length);
    }

    /**
     * @param copy as for {@link #read(ByteBufAllocator, long, int, boolean)}
     * @return true if ranges are read from a file into buffers ({@link #readInto} applies)
     */
    boolean readsFileIntoBuffers(boolean copy) {
        return source.fileChannel() != null && (buffers || copy);
    }

    /**
     * Reads {@code [offset, offset + length)} of the file source into {@code buf} at its writer
     * index, by positional reads. Only when {@link #readsFileIntoBuffers} is true.
     *
     * @param buf a buffer with room for {@code length} more bytes (it grows if not)
     * @throws IOException if a read fails or the file ends before the range does
     */
    void readInto(ByteBuf buf, long offset, int length) throws IOException {
        FileChannel file = source.fileChannel();
        long position = source.fileOffset() + offset;
        int read = 0;
        while (read < length) {
            int n = buf.writeBytes(file, position + read, length - read);
            if (n < 0) {
                throw new EOFException(
                        "file ended at " + (position + read) + " before the " + source.length() + " bytes to send");
            }
            read += n;
        }
    }

    private ByteBuf readBuffer(ByteBufAllocator alloc, long offset, int length) throws IOException {
        FileChannel file = source.fileChannel();
        if (file == null) {
            ByteBuf buffer = source.buffer();
            return buffer != null
                    ? buffer.retainedSlice(buffer.readerIndex() + Math.toIntExact(offset), length)
                    : Unpooled.wrappedBuffer(source.bytes(), Math.toIntExact(offset), length);
        }
        ByteBuf buf = alloc.directBuffer(length);
        try {
            readInto(buf, offset, length);
            return buf;
        } catch (IOException | RuntimeException e) {
            buf.release();
            throw e;
        }
    }
}
