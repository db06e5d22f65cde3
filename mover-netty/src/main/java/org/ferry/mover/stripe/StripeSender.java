package org.ferry.mover.stripe;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import java.io.EOFException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import org.ferry.mover.data.ModeEHeader;
import org.ferry.mover.data.WritabilityPump;

/**
 * Sends one connection's share of one stripe in MODE E (GFD.020 "Extended Block Mode";
 * GFD.020 "Extended Block Mode"): blocks from the {@link StripeDealer}, each a header with the
 * block's file offset (the layout counts blocks from the start of the transferred range, i.e. the
 * REST offset) and the payload read from the file; at the end
 * {@code EOD|CLOSE}, or {@code EOF|EOD|CLOSE} with the stripe's EOD count on the one connection
 * that carries the stripe's EOF; then the connection closes. A block is read only while the
 * channel is writable and fewer than {@link #MAX_IN_FLIGHT} blocks wait for the socket (the
 * lifecycle the data senders share, {@link WritabilityPump}).
 */
final class StripeSender extends WritabilityPump {

    /** Blocks written but not yet handed to the socket, per connection. */
    static final int MAX_IN_FLIGHT = 4;

    private final FileChannel file;
    private final long fileOffset;
    private final StripeDealer dealer;
    private final StripeTransfer transfer;

    StripeSender(FileChannel file, long fileOffset, StripeDealer dealer, StripeTransfer transfer) {
        super(transfer, "stripe data connection");
        this.file = file;
        this.fileOffset = fileOffset;
        this.dealer = dealer;
        this.transfer = transfer;
    }

    @Override
    protected void pump(ChannelHandlerContext ctx) {
        while (canWrite(ctx, MAX_IN_FLIGHT)) {
            long offset = dealer.claimBlock();
            if (offset < 0) {
                // End only after every block's write completed, as ModeESender: the EOF's listener
                // must see all bytes counted.
                if (inFlight() == 0) {
                    end(ctx);
                }
                return;
            }
            int length = dealer.blockLength(offset);
            ByteBuf payload;
            try {
                payload = read(ctx, offset, length);
            } catch (IOException | RuntimeException e) {
                transfer.fail(e);
                return;
            }
            // MODE E offsets are file offsets: after REST the receiver writes each block where it
            // belongs and keeps the ranges it already has (GFD.020 "Restarting"; reference 2.6)
            ctx.write(ModeEHeader.data(length, fileOffset + offset), ctx.voidPromise());
            writeCounted(ctx, payload, length);
        }
    }

    private ByteBuf read(ChannelHandlerContext ctx, long offset, int length) throws IOException {
        ByteBuf buf = ctx.alloc().directBuffer(length);
        try {
            long position = fileOffset + offset;
            while (buf.writerIndex() < length) {
                int n = buf.writeBytes(file, position + buf.writerIndex(), length - buf.writerIndex());
                if (n < 0) {
                    throw new EOFException(
                            "file ended at " + (position + buf.writerIndex()) + " before the stripe's end");
                }
            }
            return buf;
        } catch (IOException | RuntimeException e) {
            buf.release();
            throw e;
        }
    }

    private void end(ChannelHandlerContext ctx) {
        markEnded();
        long eof = dealer.claimEof();
        ModeEHeader last = eof > 0
                ? new ModeEHeader(ModeEHeader.EOF | ModeEHeader.EOD | ModeEHeader.CLOSE, 0, eof)
                : new ModeEHeader(ModeEHeader.EOD | ModeEHeader.CLOSE, 0, 0);
        ctx.writeAndFlush(last).addListener(f -> {
            if (!f.isSuccess()) {
                transfer.fail(f.cause());
                return;
            }
            ctx.close();
            if (dealer.connectionFinished()) {
                transfer.succeed();
            }
        });
    }
}
