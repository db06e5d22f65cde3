package org.ferry.mover.data;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Base of the data senders: starts writing once the connection is active (or at once when added
 * to an active one) and writes more whenever the channel becomes writable again, so a sender never
 * buffers more than the channel's write watermark allows (backpressure, Netty's writability).
 */
abstract class WritabilityPump extends ChannelInboundHandlerAdapter {

    private boolean started;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive()) {
            start(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        start(ctx);
        ctx.fireChannelActive();
    }

    private void start(ChannelHandlerContext ctx) {
        if (!started) {
            started = true;
            pump(ctx);
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (started && ctx.channel().isWritable()) {
            pump(ctx);
        }
        ctx.fireChannelWritabilityChanged();
    }

    /** Writes while the channel is writable and there is something to send; called on the event loop. */
    abstract void pump(ChannelHandlerContext ctx);
}
