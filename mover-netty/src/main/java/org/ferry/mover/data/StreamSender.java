package org.ferry.mover.data;

import io.netty.channel.ChannelHandlerContext;
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

    StreamSender(SourceReader reader, DataTransfer transfer) {
        super(transfer, "stream mode data connection");
        this.reader = reader;
        this.transfer = transfer;
    }

    @Override
    protected void pump(ChannelHandlerContext ctx) {
        while (canWrite(ctx, MAX_IN_FLIGHT)) {
            if (nextOffset >= reader.length()) {
                if (inFlight() == 0) {
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
            writeCounted(ctx, chunk, length);
        }
    }

    private void end(ChannelHandlerContext ctx) {
        markEnded();
        ctx.close().addListener(f -> transfer.succeed());
    }
}
