package org.ferry.mover.stripe;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import java.io.EOFException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import org.ferry.mover.data.ModeEHeader;

/**
 * Sends one connection's share of one stripe in MODE E (GFD.020 "Extended Block Mode";
 * gridftp-protocol.md section 2.1): blocks from the {@link StripeDealer}, each a header with the
 * block's file offset (the layout counts blocks from the start of the transferred range, i.e. the
 * REST offset) and the payload read from the file; at the end
 * {@code EOD|CLOSE}, or {@code EOF|EOD|CLOSE} with the stripe's EOD count on the one connection
 * that carries the stripe's EOF; then the connection closes. A block is read only while the
 * channel is writable and fewer than {@link #MAX_IN_FLIGHT} blocks wait for the socket.
 */
final class StripeSender extends ChannelInboundHandlerAdapter {

    /** Blocks written but not yet handed to the socket, per connection. */
    static final int MAX_IN_FLIGHT = 4;

    private final FileChannel file;
    private final long fileOffset;
    private final StripeDealer dealer;
    private final StripeTransfer transfer;
    private int inFlight;
    private boolean started;
    private boolean ended;

    StripeSender(FileChannel file, long fileOffset, StripeDealer dealer, StripeTransfer transfer) {
        this.file = file;
        this.fileOffset = fileOffset;
        this.dealer = dealer;
        this.transfer = transfer;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (!started) {
            started = true;
            pump(ctx);
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (started && ctx.channel().isWritable()) {
            pump(ctx);
        }
        ctx.fireChannelWritabilityChanged();
    }

    private void pump(ChannelHandlerContext ctx) {
        while (!ended && !transfer.isDone() && inFlight < MAX_IN_FLIGHT && ctx.channel().isWritable()) {
            long offset = dealer.claimBlock();
            if (offset < 0) {
                end(ctx);
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
            inFlight++;
            // MODE E offsets are file offsets: after REST the receiver writes each block where it
            // belongs and keeps the ranges it already has (GFD.020 "Restarting"; reference 2.6)
            ctx.write(ModeEHeader.data(length, fileOffset + offset), ctx.voidPromise());
            // listen before writing: the bytes must be counted before the EOF write ends the transfer
            ChannelPromise written = ctx.newPromise();
            written.addListener(f -> {
                inFlight--;
                if (f.isSuccess()) {
                    transfer.addBytes(length);
                    pump(ctx);
                } else {
                    transfer.fail(f.cause());
                }
            });
            ctx.writeAndFlush(payload, written);
        }
    }

    private ByteBuf read(ChannelHandlerContext ctx, long offset, int length) throws IOException {
        ByteBuf buf = ctx.alloc().directBuffer(length);
        try {
            long position = fileOffset + offset;
            while (buf.writerIndex() < length) {
                int n = buf.writeBytes(file, position + buf.writerIndex(), length - buf.writerIndex());
                if (n < 0) {
                    throw new EOFException("file ended at " + (position + buf.writerIndex()) + " before the stripe's end");
                }
            }
            return buf;
        } catch (IOException | RuntimeException e) {
            buf.release();
            throw e;
        }
    }

    private void end(ChannelHandlerContext ctx) {
        ended = true;
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

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg); // receivers send nothing on MODE E data connections
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (!ended) {
            transfer.fail(new IOException("stripe data connection to " + ctx.channel().remoteAddress()
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
