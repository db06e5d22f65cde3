package org.ferry.mover.data;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;

/**
 * Follows the end-of-data protocol of one MODE E connection (GFD.020; GFD.020 "Extended Block Mode" "Receiver rules"): reports its EOD and any EOF to the transfer's {@link ModeEEndTracker},
 * fails the transfer if the connection closes before its EOD or sends data after it, and forwards
 * failures of the handlers before it. A connection left open after EOD (globus caches them) is
 * fine, as is one that closes after EOD with or without the CLOSE flag (dCache). When the transfer
 * caches connections, an EOD without CLOSE parks the connection's {@link ModeEReceiveGate} and marks
 * the connection for reuse (GFD.020; GFD.020 "Extended Block Mode", data connection reuse), and
 * stays in the pipeline for the next transfer ({@link #serve}).
 */
final class ModeEEodCounter extends ChannelInboundHandlerAdapter {

    /** This handler's name in a receiving connection's pipeline, where the next transfer finds it. */
    static final String NAME = "modeEEodCounter";

    private ModeEEndTracker tracker;
    private DataTransfer transfer;
    private boolean eodSeen;

    ModeEEodCounter(ModeEEndTracker tracker, DataTransfer transfer) {
        this.tracker = tracker;
        this.transfer = transfer;
    }

    /**
     * Counts for the next transfer on this kept connection (GFD.020 connection reuse): its EOD is
     * awaited again. Call on the connection's event loop while its {@link ModeEReceiveGate} is parked.
     */
    void serve(ModeEEndTracker nextTracker, DataTransfer nextTransfer) {
        tracker = nextTracker;
        transfer = nextTransfer;
        eodSeen = false;
    }

    /**
     * The connection leaves the transfer it was given to without taking part (the sender dropped
     * it): its close must not count as a connection lost before EOD.
     */
    void detach() {
        eodSeen = true;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ModeEHeader header)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (eodSeen) {
            if (header.count() > 0 || header.has(ModeEHeader.EOF)) {
                transfer.fail(new IOException(
                        "MODE E data after EOD on " + ctx.channel().remoteAddress()));
            }
            return; // a lone CLOSE (+EOD) after EOD: globus closing a cached connection
        }
        if (header.has(ModeEHeader.EOD)) {
            eodSeen = true;
            if (ctx.pipeline().get(ModeEReceiveGate.NAME) instanceof ModeEReceiveGate gate
                    && transfer.caching()
                    && !header.has(ModeEHeader.CLOSE)) {
                // Park before counting: the count may end the transfer and hand this connection to
                // the next one, whose frames must not reach this transfer's handlers.
                gate.park(ctx);
                transfer.keep(ctx.channel());
            }
            tracker.eod();
        }
        if (header.has(ModeEHeader.EOF)) {
            tracker.eof(header.eodCount());
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (!eodSeen) {
            transfer.fail(new IOException(
                    "MODE E data connection from " + ctx.channel().remoteAddress() + " closed before EOD"));
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        transfer.fail(cause);
        ctx.close();
    }
}
