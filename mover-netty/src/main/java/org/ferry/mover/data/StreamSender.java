package org.ferry.mover.data;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;

/**
 * Sends a stream mode transfer (RFC 959 section 3.4.1) on one connection and closes it to mark end
 * of file. File bytes go as zero-copy regions of {@link #CHUNK_BYTES} (sendfile), at most
 * {@link #MAX_IN_FLIGHT} queued at once, so progress is reported as the socket drains and nothing
 * large is buffered.
 */
final class StreamSender extends WritabilityPump {

    /** Bytes per region: the progress granularity. */
    static final int CHUNK_BYTES = 4 << 20;
    static final int MAX_IN_FLIGHT = 2;

    private final SourceReader reader;
    private final DataTransfer transfer;
    private long nextOffset;
    private int inFlight;
    private boolean ended;

    StreamSender(SourceReader reader, DataTransfer transfer) {
        this.reader = reader;
        this.transfer = transfer;
    }

    @Override
    void pump(ChannelHandlerContext ctx) {
        while (!ended && !transfer.isDone() && inFlight < MAX_IN_FLIGHT && ctx.channel().isWritable()) {
            if (nextOffset >= reader.length()) {
                if (inFlight == 0) {
                    end(ctx);
                }
                return;
            }
            int length = (int) Math.min(CHUNK_BYTES, reader.length() - nextOffset);
            Object chunk;
            try {
                chunk = reader.readRegion(ctx.alloc(), nextOffset, length);
            } catch (IOException | RuntimeException e) {
                transfer.fail(e);
                return;
            }
            nextOffset += length;
            inFlight++;
            ChannelPromise written = ctx.newPromise(); // listen before writing: see ModeESender
            written.addListener(f -> {
                inFlight--;
                if (f.isSuccess()) {
                    transfer.addBytes(length);
                    pump(ctx);
                } else {
                    transfer.fail(f.cause());
                }
            });
            ctx.writeAndFlush(chunk, written);
        }
    }

    private void end(ChannelHandlerContext ctx) {
        ended = true;
        ctx.close().addListener(f -> transfer.succeed());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (!ended) {
            transfer.fail(new IOException("stream mode data connection to " + ctx.channel().remoteAddress()
                    + " closed by the peer during the transfer"));
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        transfer.fail(cause);
        ctx.close();
    }
}
