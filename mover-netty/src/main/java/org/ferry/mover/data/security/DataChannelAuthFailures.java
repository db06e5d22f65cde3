package org.ferry.mover.data.security;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import java.io.IOException;
import javax.net.ssl.SSLException;

/**
 * Turns TLS failures of a PROT S/P data connection into one clear {@link IOException}
 * ({@code data channel authentication with <peer> failed: <reason>}) for the transfer handlers
 * behind it, including a handshake that ended with the connection closed (which {@code SslHandler}
 * reports only as an event). After a successful handshake under PROT P, refuses a cipher suite
 * that does not encrypt (GFD.020 "DCAU", RFC 2228 section 3 (PROT)).
 */
final class DataChannelAuthFailures extends ChannelInboundHandlerAdapter {

    private final boolean requireEncryption;
    private boolean reported;

    /** @param requireEncryption true under PROT P */
    DataChannelAuthFailures(boolean requireEncryption) {
        this.requireEncryption = requireEncryption;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof SslHandshakeCompletionEvent done) {
            if (!done.isSuccess()) {
                report(ctx, done.cause());
            } else if (requireEncryption) {
                String suite = ctx.pipeline()
                        .get(SslHandler.class)
                        .engine()
                        .getSession()
                        .getCipherSuite();
                if (suite.contains("_NULL_")) {
                    report(ctx, new SSLException("PROT P needs encryption, but the peer chose " + suite));
                    ctx.close();
                }
            }
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (findSsl(cause) != null) {
            report(ctx, cause);
            ctx.close();
            return;
        }
        ctx.fireExceptionCaught(cause);
    }

    private void report(ChannelHandlerContext ctx, Throwable cause) {
        if (reported) {
            return; // SslHandler reports one failure as both an exception and an event
        }
        reported = true;
        ctx.fireExceptionCaught(translate(ctx, cause));
    }

    static IOException translate(ChannelHandlerContext ctx, Throwable cause) {
        return new IOException(
                "data channel authentication with " + ctx.channel().remoteAddress() + " failed: " + innermost(cause),
                cause);
    }

    private static SSLException findSsl(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof SSLException ssl) {
                return ssl;
            }
        }
        return null;
    }

    /** The deepest message: JSSE wraps our trust manager's reason (e.g. the wrong identity). */
    static String innermost(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        return c.getMessage() != null ? c.getMessage() : c.toString();
    }
}
