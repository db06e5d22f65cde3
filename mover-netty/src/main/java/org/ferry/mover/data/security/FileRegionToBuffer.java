package org.ferry.mover.data.security;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.FileRegion;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.List;

/**
 * Reads a {@link FileRegion} (the zero-copy chunks of clear connections) into a buffer, because TLS
 * must see the bytes to encrypt them and {@code SslHandler} accepts only {@link ByteBuf}s. Sits just
 * behind the {@code SslHandler} of a PROT S/P connection as a safety net: Ferry's senders already
 * write buffers there (a region costs an extra copy through the JDK's transfer buffer); never used
 * under DCAU N or PROT C, where sendfile keeps working.
 */
final class FileRegionToBuffer extends MessageToMessageEncoder<FileRegion> {

    FileRegionToBuffer() {
        super(FileRegion.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, FileRegion region, List<Object> out) throws IOException {
        long remaining = region.count() - region.transferred();
        ByteBuf buf = ctx.alloc().directBuffer(Math.toIntExact(remaining));
        try {
            WritableByteChannel into = new BufferChannel(buf);
            while (buf.writerIndex() < remaining) {
                long n = region.transferTo(into, region.transferred());
                if (n <= 0 && buf.writerIndex() < remaining) {
                    throw new EOFException("file ended inside a data channel region");
                }
            }
            out.add(buf);
        } catch (IOException | RuntimeException e) {
            buf.release();
            throw e;
        }
    }

    /** Appends whatever is written to a buffer that already has room for it. */
    private static final class BufferChannel implements WritableByteChannel {
        private final ByteBuf buf;

        BufferChannel(ByteBuf buf) {
            this.buf = buf;
        }

        @Override
        public int write(ByteBuffer src) {
            int n = Math.min(src.remaining(), buf.writableBytes());
            ByteBuffer slice = src.duplicate();
            slice.limit(slice.position() + n);
            buf.writeBytes(slice);
            src.position(src.position() + n);
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {}
    }
}
