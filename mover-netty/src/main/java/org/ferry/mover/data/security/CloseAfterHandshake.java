package org.ferry.mover.data.security;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.ssl.SslHandler;

/**
 * Holds a close of a PROT S/P data connection until its TLS handshake is over (GFD.020 "DCAU", RFC 2228 section 3 (PROT)). In stream mode the end of the data is the close of the connection, so a sender with
 * nothing to send (an empty file, an empty listing) closes at once; closed mid-handshake, the peer
 * would read it as a failed authentication rather than as empty data. If the handshake fails, the
 * close waits until the failure has been reported, so the transfer fails rather than ends. Sits
 * behind the {@link SslHandler} it waits for.
 */
final class CloseAfterHandshake extends ChannelOutboundHandlerAdapter {

    private final SslHandler tls;

    /** @param tls the connection's TLS handler */
    CloseAfterHandshake(SslHandler tls) {
        this.tls = tls;
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        if (tls.handshakeFuture().isDone()) {
            ctx.close(promise);
        } else {
            tls.handshakeFuture().addListener(f -> {
                if (f.isSuccess()) {
                    ctx.close(promise);
                } else {
                    // After the failure event this listener precedes has reached the transfer
                    // handlers (DataChannelAuthFailures): the transfer must end failed, not closed.
                    ctx.executor().execute(() -> ctx.close(promise));
                }
            });
        }
    }
}
