package org.ferry.mover.data;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.ChannelInputShutdownReadComplete;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import java.util.Queue;

/**
 * The first handler of an accepted data connection: holds what arrives before a transfer attaches
 * to the connection (its bytes, the peer's end of input, a failure) and hands it on, in order, once
 * the transfer's handlers are in place ({@link #release}). Needed because a peer may connect, send
 * a whole small file and close before the transfer command is processed locally, and the native
 * epoll transport reads such a connection at once (it always listens for the peer's close), where
 * NIO would have left the bytes in the socket until auto-read was turned on.
 *
 * <p>Accepted data connections allow half-closure, so the peer's close does not close the channel
 * before the transfer saw the bytes; this handler turns the end of input into the close the
 * transfer handlers expect (stream mode: end of file), at once when released, else at release; or,
 * for handlers that {@linkplain #passEndOfInput decide themselves} (a MODE E receiver may keep a
 * connection whose input ended while it holds a next file's blocks), passes the end of input on.
 * Runs on the connection's event loop only.
 */
final class InboundHold extends ChannelInboundHandlerAdapter {

    /** Name in the pipeline. */
    static final String NAME = "inbound-hold";

    private final Queue<Object> held = new ArrayDeque<>();
    private boolean released;
    private boolean inputShutdown;
    private boolean passEndOfInput;
    private boolean inactive;
    private Throwable failure;

    /**
     * Passes on what was held, then everything as it comes. Call on the channel's event loop after
     * the transfer's handlers were added behind this one.
     *
     * @param channel an accepted data connection (nothing happens without a hold in its pipeline)
     */
    static void release(Channel channel) {
        InboundHold hold = (InboundHold) channel.pipeline().get(NAME);
        if (hold != null) {
            hold.release(channel.pipeline().context(NAME));
        }
    }

    /**
     * Makes the hold pass the peer's end of input on as a {@link ChannelInputShutdownEvent}
     * instead of closing the connection. Call on the channel's event loop before {@link #release}.
     *
     * @param channel an accepted data connection (nothing happens without a hold in its pipeline)
     */
    static void passEndOfInput(Channel channel) {
        InboundHold hold = (InboundHold) channel.pipeline().get(NAME);
        if (hold != null) {
            hold.passEndOfInput = true;
        }
    }

    private void release(ChannelHandlerContext ctx) {
        if (released) {
            return;
        }
        released = true;
        boolean any = !held.isEmpty();
        Object message;
        while ((message = held.poll()) != null) {
            ctx.fireChannelRead(message);
        }
        if (any) {
            ctx.fireChannelReadComplete();
        }
        if (failure != null) {
            ctx.fireExceptionCaught(failure);
        }
        if (inputShutdown && !inactive) {
            endOfInput(ctx);
        } else if (inactive) {
            ctx.fireChannelInactive();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (released) {
            ctx.fireChannelRead(msg);
        } else {
            held.add(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (released) {
            ctx.fireChannelReadComplete();
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            // the peer closed its side: for the transfer that is the connection's end
            if (released) {
                endOfInput(ctx);
            } else {
                inputShutdown = true;
            }
        } else if (!(evt instanceof ChannelInputShutdownReadComplete)) {
            ctx.fireUserEventTriggered(evt);
        }
    }

    private void endOfInput(ChannelHandlerContext ctx) {
        if (passEndOfInput) {
            ctx.fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
        } else {
            ctx.close();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (released) {
            ctx.fireChannelInactive();
        } else {
            inactive = true;
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (released) {
            ctx.fireExceptionCaught(cause);
        } else if (failure == null) {
            failure = cause;
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        Object message;
        while ((message = held.poll()) != null) {
            ReferenceCountUtil.release(message);
        }
    }
}
