package org.ferry.mover.data;

import io.netty.channel.ChannelHandlerContext;
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
    private final int chunkBytes;
    private final int maxInFlight;
    private long nextOffset;

    /**
     * @param reader   the source (it knows whether it reads file regions or buffers)
     * @param transfer the transfer this connection serves
     */
    StreamSender(SourceReader reader, DataTransfer transfer) {
        super(transfer, "stream mode data connection");
        this.reader = reader;
        this.transfer = transfer;
        this.chunkBytes = reader.readsBuffers() ? BUFFER_BYTES : REGION_BYTES;
        this.maxInFlight = reader.readsBuffers() ? MAX_BUFFERS_IN_FLIGHT : MAX_REGIONS_IN_FLIGHT;
    }

    @Override
    protected void pump(ChannelHandlerContext ctx) {
        while (canWrite(ctx, maxInFlight)) {
            if (nextOffset >= reader.length()) {
                if (inFlight() == 0) {
                    end(ctx);
                }
                return;
            }
            int length = (int) Math.min(chunkBytes, reader.length() - nextOffset);
            Object chunk;
            try {
                chunk = reader.read(ctx.alloc(), nextOffset, length);
            } catch (IOException | RuntimeException e) {
                transfer.fail(e);
                return;
            }
            nextOffset += length;
            writeCounted(ctx, chunk, length);
        }
    }

    private void end(ChannelHandlerContext ctx) {
        markEnded();
        ctx.close().addListener(f -> transfer.succeed());
    }
}
