package org.ferry.mover.server.pi;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * First handler of a control connection when the server limits its sessions ({@code --max-sessions},
 * globus-gridftp-server's {@code -connections-max}): a connection that would be one too many gets
 * {@link #REFUSAL} instead of the banner and is closed, as {@code globus_l_gfs_reject_open_cb}
 * (globus_gridftp_server.c) does; the sessions already open go on. RFC 959 section 4.2: 421 "Service
 * not available, closing control connection", which a client may answer to any command, here the
 * connect. One instance per connection; the count is the server's.
 */
public final class SessionLimitHandler extends ChannelInboundHandlerAdapter {

    /** The reply to a connection beyond the limit, globus-gridftp-server's words. */
    public static final String REFUSAL =
            "421 Service busy: Connection limit exceeded. Please try again later. Closing control connection.";

    private static final Logger LOG = LoggerFactory.getLogger(SessionLimitHandler.class);

    private final AtomicInteger open;
    private final int limit;
    private boolean counted;

    /**
     * @param open the server's count of open control connections, shared by all its connections
     * @param limit most connections open at once, 1 or more
     */
    public SessionLimitHandler(AtomicInteger open, int limit) {
        this.open = open;
        this.limit = limit;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (open.incrementAndGet() > limit) {
            open.decrementAndGet();
            LOG.info("Refused {}: {} sessions open, the limit", ctx.channel().remoteAddress(), limit);
            // written from here, past the reply encoder: the refusal goes out as it is, and the
            // session handler never hears of this connection (no banner, no session)
            ctx.writeAndFlush(Unpooled.copiedBuffer(REFUSAL + "\r\n", StandardCharsets.US_ASCII))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        counted = true;
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (counted) {
            counted = false;
            open.decrementAndGet();
            ctx.fireChannelInactive();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (counted) {
            ctx.fireChannelRead(msg);
        } else {
            ReferenceCountUtil.release(msg); // a refused client's commands go unread
        }
    }
}
