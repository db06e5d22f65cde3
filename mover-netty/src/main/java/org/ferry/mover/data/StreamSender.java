package org.ferry.mover.data;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;

/**
 * Sends a stream mode transfer (RFC 959 section 3.4.1) on one connection and closes it to mark end
 * of file. On a plain (or PROT C) connection file bytes go as zero-copy regions of
 * {@link #REGION_BYTES} (sendfile), at most {@link #MAX_REGIONS_IN_FLIGHT} queued at once, so
 * progress is reported as the socket drains and nothing large is buffered. Under PROT S/P the
 * bytes must pass through TLS anyway, so they are read straight into pooled direct buffers of
 * {@link #BUFFER_BYTES} (one positional read each; a file region would be copied again through the
 * JDK's 8 KiB transfer buffer), at most {@link #MAX_BUFFERS_IN_FLIGHT} at once.
 */
final class StreamSender extends WritabilityPump {

    /** Bytes per zero-copy region: the progress granularity on clear connections. */
    static final int REGION_BYTES = 4 << 20;
    static final int MAX_REGIONS_IN_FLIGHT = 2;
    /** Bytes per buffer under TLS: a MODE E block's worth, which the pooled allocator serves. */
    static final int BUFFER_BYTES = DataChannels.DEFAULT_BLOCK_SIZE_BYTES;
    static final int MAX_BUFFERS_IN_FLIGHT = 4;

    private final SourceReader reader;
    private final DataTransfer transfer;
    private final boolean buffers;
    private final int chunkBytes;
    private final int maxInFlight;
    private long nextOffset;
    private int inFlight;
    private boolean ended;

    /**
     * @param reader   the source
     * @param transfer the transfer this connection serves
     * @param buffers  true when a handler in front must see the bytes (PROT S/P TLS): send buffers,
     *                 not file regions
     */
    StreamSender(SourceReader reader, DataTransfer transfer, boolean buffers) {
        this.reader = reader;
        this.transfer = transfer;
        this.buffers = buffers;
        this.chunkBytes = buffers ? BUFFER_BYTES : REGION_BYTES;
        this.maxInFlight = buffers ? MAX_BUFFERS_IN_FLIGHT : MAX_REGIONS_IN_FLIGHT;
    }

    @Override
    void pump(ChannelHandlerContext ctx) {
        while (!ended && !transfer.isDone() && inFlight < maxInFlight && ctx.channel().isWritable()) {
            if (nextOffset >= reader.length()) {
                if (inFlight == 0) {
                    end(ctx);
                }
                return;
            }
            int length = (int) Math.min(chunkBytes, reader.length() - nextOffset);
            Object chunk;
            try {
                chunk = buffers ? reader.readBuffer(ctx.alloc(), nextOffset, length)
                        : reader.readRegion(ctx.alloc(), nextOffset, length);
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
