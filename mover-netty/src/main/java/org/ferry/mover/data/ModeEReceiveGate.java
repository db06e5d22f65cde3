package org.ferry.mover.data;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Sits right after the {@link ModeEFrameDecoder} of a receiving MODE E connection for the
 * connection's whole life, so the connection can outlive one transfer (GFD.020 "Extended Block
 * Mode", data connection reuse). Open, it passes frames on to the current transfer's handlers.
 * {@linkplain #park Parked} (after this connection's EOD), it stops reading and holds back the
 * frames the decoder already produced: they belong to the next transfer, which may be queued behind
 * this one's last EODs on other connections (pipelining). {@linkplain #open(ChannelHandlerContext)
 * Opening} it again replays them in order. A zero-length CLOSE header while parked means the peer
 * drops this cached connection: it is closed.
 *
 * <p>The peer's end of input ({@link ChannelInputShutdownEvent}, the connection allows half-closure)
 * closes the connection at once, except while it is parked holding frames of a next transfer: a
 * sender may send a pipelined file's blocks and then drop the connection before this side has
 * finished the previous file. The connection then stays until the next transfer took those frames.
 * Held frames are released when the connection closes.
 */
final class ModeEReceiveGate extends ChannelInboundHandlerAdapter {

    /** This handler's name in a receiving connection's pipeline, where the next transfer finds it. */
    static final String NAME = "modeEGate";

    /**
     * Marks a connection this gate closed while parked with nothing of a next transfer held (the
     * sender dropped it, or its input ended): a channel attribute, since the pipeline is torn down
     * at close.
     */
    private static final AttributeKey<Boolean> CLOSED_IDLE = AttributeKey.valueOf(ModeEReceiveGate.class, "closedIdle");

    private final Deque<Object> held = new ArrayDeque<>();
    private boolean parked;
    private boolean reused; // opened for a new transfer and no frame of it seen yet
    private boolean inputEnded; // the peer closed its side: nothing more will arrive

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
        if (!ctx.channel().isOpen()) {
            return; // a drop among the held frames, or a transfer that ended here and closed it
        }
        if (inputEnded) {
            settleEndedInput(ctx);
        } else if (!parked) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    /**
     * @return true if {@code channel} was closed by its gate while parked with nothing held (the
     *     sender dropped it or closed it after its EOD), so no frame of a following transfer was
     *     lost with it
     */
    static boolean closedWhileIdle(Channel channel) {
        return Boolean.TRUE.equals(channel.attr(CLOSED_IDLE).get());
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
            closeIdle(ctx);
            return;
        }
        held.addLast(msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            // the decoder before this handler has passed on every frame the input held
            inputEnded = true;
            settleEndedInput(ctx);
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    /**
     * After the end of input: a connection in a transfer closes (the EOD counter judges whether it
     * ended in time); a parked one closes unless it holds frames of a next transfer other than a drop.
     */
    private void settleEndedInput(ChannelHandlerContext ctx) {
        if (!parked) {
            ctx.close();
            return;
        }
        Object next = held.peekFirst();
        if (next == null || isDrop(next)) {
            closeIdle(ctx);
        }
    }

    private void closeIdle(ChannelHandlerContext ctx) {
        ctx.channel().attr(CLOSED_IDLE).set(Boolean.TRUE);
        ctx.close();
    }

    private void deliver(ChannelHandlerContext ctx, Object msg) {
        if (reused) {
            reused = false;
            if (isDrop(msg)) {
                // The sender's parallelism shrank and it closes this cached connection with a
                // zero-length CLOSE (+EOD) header as the first frame of the new transfer: not one of
                // this transfer's connections, so its handlers must neither count an EOD nor see the close.
                if (ctx.pipeline().get(ModeEEodCounter.NAME) instanceof ModeEEodCounter counter) {
                    counter.detach();
                }
                ctx.close();
                return;
            }
        }
        ctx.fireChannelRead(msg);
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
