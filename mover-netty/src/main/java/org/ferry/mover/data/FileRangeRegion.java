package org.ferry.mover.data;

import io.netty.channel.DefaultFileRegion;
import java.nio.channels.FileChannel;

/**
 * A zero-copy byte range of a {@link FileChannel}: {@code sendfile} on Linux, from native code on
 * the epoll transport (which sends only a {@link DefaultFileRegion} that way; any other region goes
 * through {@code FileChannel.transferTo} into a wrapper channel, which the JDK serves by copying
 * 8 KiB at a time) and by {@code FileChannel.transferTo} on NIO. A file that shrank while it is sent
 * fails the write ({@link DefaultFileRegion} checks the size when nothing more could be sent).
 * Unlike a plain {@link DefaultFileRegion}, releasing it does not close the channel: {@link
 * DataSource} channels belong to the caller, and one channel serves many regions.
 */
final class FileRangeRegion extends DefaultFileRegion {

    /**
     * @param file open for reading; not closed by this region
     * @param position absolute file position of the first byte
     * @param count number of bytes
     */
    FileRangeRegion(FileChannel file, long position, long count) {
        super(file, position, count);
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
