package org.ferry.mover.data;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Writes each {@link ModeEPayload} into the {@link DataSink} at its offset (positional writes, so
 * blocks from parallel connections land where GFD.020 says regardless of arrival order) and counts
 * the bytes. Other messages pass on. Runs on the connection's event loop: page-cache writes are
 * short, and writing inline means a slow disk slows reading, so TCP flow control pushes back on the
 * sender instead of memory filling up. On a kept connection it stays for the next transfer
 * ({@link #serve}).
 */
final class ModeEBlockWriter extends ChannelInboundHandlerAdapter {

    /** This handler's name in a receiving connection's pipeline, where the next transfer finds it. */
    static final String NAME = "modeEBlockWriter";

    private DataSink sink;
    private DataTransfer transfer;

    ModeEBlockWriter(DataSink sink, DataTransfer transfer) {
        this.sink = sink;
        this.transfer = transfer;
    }

    /**
     * Writes the next transfer's blocks (a kept connection serving another file). Call on the
     * connection's event loop while its {@link ModeEReceiveGate} is parked.
     */
    void serve(DataSink nextSink, DataTransfer nextTransfer) {
        sink = nextSink;
        transfer = nextTransfer;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws IOException {
        if (!(msg instanceof ModeEPayload payload)) {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            if (!transfer.isDone()) {
                long offset = payload.offset();
                for (ByteBuffer buffer : payload.content().nioBuffers()) {
                    int n = buffer.remaining();
                    sink.write(buffer, offset);
                    offset += n;
                }
                transfer.addBytes(offset - payload.offset());
            }
        } finally {
            payload.release();
        }
    }
}
