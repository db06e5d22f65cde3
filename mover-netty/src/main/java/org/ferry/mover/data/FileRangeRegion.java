package org.ferry.mover.data;

import io.netty.channel.FileRegion;
import io.netty.util.AbstractReferenceCounted;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A zero-copy byte range of a {@link FileChannel} ({@code FileChannel.transferTo}, i.e.
 * {@code sendfile} on Linux). Unlike Netty's {@code DefaultFileRegion}, releasing it does not close
 * the channel: {@link DataSource} channels belong to the caller, and one channel serves many regions.
 */
final class FileRangeRegion extends AbstractReferenceCounted implements FileRegion {

    private final FileChannel file;
    private final long position;
    private final long count;
    private long transferred;

    /**
     * @param file open for reading; not closed by this region
     * @param position absolute file position of the first byte
     * @param count number of bytes
     */
    FileRangeRegion(FileChannel file, long position, long count) {
        this.file = file;
        this.position = position;
        this.count = count;
    }

    @Override
    public long position() {
        return position;
    }

    @Override
    @Deprecated
    public long transfered() {
        return transferred;
    }

    @Override
    public long transferred() {
        return transferred;
    }

    @Override
    public long count() {
        return count;
    }

    @Override
    public long transferTo(WritableByteChannel target, long relativePosition) throws IOException {
        long remaining = count - relativePosition;
        if (remaining < 0 || relativePosition < 0) {
            throw new IllegalArgumentException("position " + relativePosition + " outside 0.." + count);
        }
        if (remaining == 0) {
            return 0L;
        }
        long written = file.transferTo(position + relativePosition, remaining, target);
        if (written > 0) {
            transferred += written;
        } else if (file.size() < position + count) {
            // transferTo returns 0 forever once the file shrank: fail instead of spinning.
            throw new IOException("file shrank to " + file.size() + " bytes while sending up to " + (position + count));
        }
        return written;
    }

    @Override
    protected void deallocate() {
        // The channel belongs to the DataSource's owner.
    }

    @Override
    public FileRangeRegion retain() {
        super.retain();
        return this;
    }

    @Override
    public FileRangeRegion retain(int increment) {
        super.retain(increment);
        return this;
    }

    @Override
    public FileRangeRegion touch() {
        return this;
    }

    @Override
    public FileRangeRegion touch(Object hint) {
        return this;
    }
}
