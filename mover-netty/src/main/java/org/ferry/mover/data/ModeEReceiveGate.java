package org.ferry.mover.data;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Sits right after the {@link ModeEFrameDecoder} of a receiving MODE E connection for the
 * connection's whole life, so the connection can outlive one transfer (GFD.020 connection reuse;
 * GFD.020 "Extended Block Mode", data connection reuse). Open, it passes frames on to the current transfer's handlers.
 * {@linkplain #park() Parked} (after this connection's EOD), it stops reading and holds back the
 * frames the decoder already produced: they belong to the next transfer, which may be queued behind
 * this one's last EODs on other connections (pipelining). {@linkplain #open(ChannelHandlerContext)
 * Opening} it again replays them in order. A zero-length CLOSE header while parked means the peer
 * drops this cached connection: it is closed. Held frames are released when the connection closes.
 */
final class ModeEReceiveGate extends ChannelInboundHandlerAdapter {

    /**
     * Marks a connection this gate closed because the sender dropped it while parked, with nothing
     * of a next transfer held: a channel attribute, since the pipeline is torn down at close.
     */
    private static final AttributeKey<Boolean> DROPPED_IDLE =
            AttributeKey.valueOf(ModeEReceiveGate.class, "droppedIdle");

    private final Deque<Object> held = new ArrayDeque<>();
    private boolean parked;
    private boolean reused; // opened for a new transfer and no frame of it seen yet

    /** Holds further frames until {@link #open}; stops reading. Call on the connection's event loop. */
    void park(ChannelHandlerContext anyCtx) {
        parked = true;
        anyCtx.channel().config().setAutoRead(false);
    }

    /**
     * Replays held frames to the (new) handlers after this one and resumes reading. Call on the
     * connection's event loop, after the new transfer's handlers are in the pipeline.
     */
    void open(ChannelHandlerContext ctx) {
        parked = false;
        reused = true;
        Object msg;
        while (!parked && ctx.channel().isOpen() && (msg = held.pollFirst()) != null) {
            deliver(ctx, msg);
        }
        if (!parked) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!parked) {
            deliver(ctx, msg);
            return;
        }
        if (held.isEmpty() && isDrop(msg)) {
            // the peer drops this cached connection (GFD.020 "Extended Block Mode"); this can
            // happen before the next transfer's hand-over task runs on this loop
            ctx.channel().attr(DROPPED_IDLE).set(Boolean.TRUE);
            ctx.close();
            return;
        }
        held.addLast(msg);
    }

    private void deliver(ChannelHandlerContext ctx, Object msg) {
        if (reused) {
            reused = false;
            if (isDrop(msg)) {
                // The sender's parallelism shrank and it closes this cached connection with a
                // zero-length CLOSE (+EOD) header as the first frame of the new transfer: not one of
                // this transfer's connections, so its handlers must neither count an EOD nor see the close.
                ModeEEodCounter counter = ctx.pipeline().get(ModeEEodCounter.class);
                if (counter != null) {
                    counter.detach();
                }
                ctx.close();
                return;
            }
        }
        ctx.fireChannelRead(msg);
    }

    /**
     * @return true if {@code channel} was closed by its gate because the sender dropped it while it
     *     was parked, so no frame of a following transfer was lost with it
     */
    static boolean droppedWhileParked(Channel channel) {
        return Boolean.TRUE.equals(channel.attr(DROPPED_IDLE).get());
    }

    /** A zero-length CLOSE header without EOF: the sender closing an idle cached connection. */
    private static boolean isDrop(Object msg) {
        return msg instanceof ModeEHeader header
                && header.has(ModeEHeader.CLOSE)
                && header.count() == 0
                && !header.has(ModeEHeader.EOF);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        releaseHeld();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseHeld();
    }

    private void releaseHeld() {
        Object msg;
        while ((msg = held.pollFirst()) != null) {
            ReferenceCountUtil.release(msg);
        }
    }
}
