package org.ferry.mover.data;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Receives a stream mode transfer (RFC 959 section 3.4.1): bytes in order on one connection, end
 * of file = the sender closes the connection. Writes on the event loop, for the same reason as
 * {@link ModeEBlockWriter}. A reset connection fails the transfer; an orderly close completes it.
 */
final class StreamReceiver extends ChannelInboundHandlerAdapter {

    private final DataSink sink;
    private final DataTransfer transfer;
    private long position;

    StreamReceiver(DataSink sink, DataTransfer transfer) {
        this.sink = sink;
        this.transfer = transfer;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws IOException {
        if (!(msg instanceof ByteBuf buf)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        try {
            if (!transfer.isDone()) {
                long start = position;
                for (ByteBuffer buffer : buf.nioBuffers()) {
                    int n = buffer.remaining();
                    sink.write(buffer, position);
                    position += n;
                }
                transfer.addBytes(position - start);
            }
        } finally {
            buf.release();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        transfer.succeed();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        transfer.fail(cause);
        ctx.close();
    }
}
