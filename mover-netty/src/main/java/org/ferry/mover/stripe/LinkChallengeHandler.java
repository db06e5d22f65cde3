package org.ferry.mover.stripe;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Data node side of the link's authentication: sends a fresh {@link LinkMessage.Challenge} when the
 * head connects, checks the {@link LinkMessage.Auth} answer ({@link LinkAuth}), and then answers
 * {@link LinkMessage.Ready} and replaces itself with the request handler. A wrong answer, or any
 * other message first, closes the link: nothing without the secret can drive the data node.
 */
public final class LinkChallengeHandler extends SimpleChannelInboundHandler<LinkMessage> {

    private static final Logger LOG = LoggerFactory.getLogger(LinkChallengeHandler.class);

    private final LinkAuth auth;
    private final Supplier<ChannelHandler> requests;
    private byte[] nonce;

    /**
     * @param auth the shared secret
     * @param requests makes the handler that serves requests once authenticated
     */
    public LinkChallengeHandler(LinkAuth auth, Supplier<ChannelHandler> requests) {
        this.auth = auth;
        this.requests = requests;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        nonce = auth.nonce();
        ctx.writeAndFlush(new LinkMessage.Challenge(nonce));
        ctx.fireChannelActive();
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, LinkMessage msg) {
        if (nonce != null && msg instanceof LinkMessage.Auth answer && auth.verify(nonce, answer.mac())) {
            ctx.pipeline().replace(this, "linkRequests", requests.get());
            ctx.writeAndFlush(new LinkMessage.Ready());
            return;
        }
        LOG.warn(
                "rejected link connection from {}: bad authentication",
                ctx.channel().remoteAddress());
        ctx.close();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.warn(
                "link connection from {} failed during authentication: {}",
                ctx.channel().remoteAddress(),
                cause.toString());
        ctx.close();
    }
}
