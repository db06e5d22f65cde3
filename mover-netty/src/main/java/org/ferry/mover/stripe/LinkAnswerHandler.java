package org.ferry.mover.stripe;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/**
 * Head side of the link's authentication: answers the data node's {@link LinkMessage.Challenge}
 * with {@link LinkMessage.Auth} and, on {@link LinkMessage.Ready}, completes {@link #ready()} and
 * leaves the pipeline. Anything else first, or the link closing, fails {@link #ready()}.
 */
public final class LinkAnswerHandler extends SimpleChannelInboundHandler<LinkMessage> {

    private final LinkAuth auth;
    private final CompletableFuture<Void> ready = new CompletableFuture<>();

    /** @param auth the shared secret */
    public LinkAnswerHandler(LinkAuth auth) {
        this.auth = auth;
    }

    /** @return completes once the data node accepted the answer */
    public CompletableFuture<Void> ready() {
        return ready;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, LinkMessage msg) {
        if (msg instanceof LinkMessage.Challenge challenge) {
            ctx.writeAndFlush(new LinkMessage.Auth(auth.answer(challenge.nonce())));
        } else if (msg instanceof LinkMessage.Ready) {
            ctx.pipeline().remove(this);
            ready.complete(null);
        } else {
            ready.completeExceptionally(new IOException(
                    "data node sent " + msg.getClass().getSimpleName() + " before authentication ended"));
            ctx.close();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        ready.completeExceptionally(new IOException("data node " + ctx.channel().remoteAddress()
                + " closed the link during authentication (wrong secret?)"));
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ready.completeExceptionally(cause);
        ctx.close();
    }
}
