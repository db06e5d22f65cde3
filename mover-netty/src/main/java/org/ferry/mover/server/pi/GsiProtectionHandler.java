package org.ferry.mover.server.pi;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.ferry.gsi.context.GsiContextException;
import org.ferry.gsi.context.SecurityContext;
import org.ferry.mover.protocol.FtpCommand;
import org.ferry.mover.protocol.FtpReply;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Protected control channel after {@code 235} (RFC 2228 sections 3, 4; RFC 2228 sections 3 and 4 (MIC, ENC; 631-633)):
 * unwraps {@code ENC}/{@code MIC}/{@code CONF} commands into plain {@link FtpCommand}s and wraps
 * every reply line separately as {@code 632 <base64>} ({@code 631} without confidentiality),
 * all but the last line of a multi-line reply as {@code 632-<base64>}, as globus-gridftp-server
 * does. Clear commands are refused with 533: accepting them would let anyone on the path inject
 * commands into an authenticated session. A token that is not base64 gets 501 and the session
 * goes on (nothing reached the TLS session). A token that fails the security check (altered,
 * replayed, truncated: RFC 2228 section 5.3) gets a clear {@code 535 Failed security check: ...}
 * and the control connection is closed, the command unexecuted: the TLS session behind the
 * context has failed, so nothing more could be verified or protected (globus-gridftp-server ends
 * the session there too, without a reply). Runs on the channel's event loop, in front of the
 * session handler.
 */
public final class GsiProtectionHandler extends ChannelDuplexHandler {
    private static final Logger LOG = LoggerFactory.getLogger(GsiProtectionHandler.class);

    private final SecurityContext context;

    /** @param context an established context */
    public GsiProtectionHandler(SecurityContext context) {
        this.context = context;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof FtpCommand command) || command.tooLong()) {
            ctx.fireChannelRead(msg);
            return;
        }
        switch (command.verb()) {
            case "ENC", "MIC", "CONF" -> {
                byte[] token;
                try {
                    token = Base64.getDecoder().decode(command.argument().strip());
                } catch (IllegalArgumentException e) {
                    ctx.channel()
                            .writeAndFlush(FtpReply.of(
                                    501,
                                    "Syntax error in parameters or arguments: " + command.verb()
                                            + " token is not base64."));
                    return;
                }
                byte[] plain;
                try {
                    plain = context.unwrap(token);
                } catch (GsiContextException e) {
                    LOG.warn(
                            "protected command from {} failed the security check, closing: {}",
                            ctx.channel().remoteAddress(),
                            e.getMessage());
                    // Clear (written from here, it skips this handler's wrapping): the TLS session failed.
                    ctx.writeAndFlush(FtpReply.of(535, "Failed security check: " + e.getMessage()))
                            .addListener(ChannelFutureListener.CLOSE);
                    return;
                }
                String line = new String(plain, StandardCharsets.UTF_8);
                // Unwrapped text may end with NUL (dCache secure_command) and CRLF.
                line = line.replace("\0", "");
                while (line.endsWith("\n") || line.endsWith("\r")) {
                    line = line.substring(0, line.length() - 1);
                }
                ctx.fireChannelRead(FtpCommand.parse(line));
            }
            // Through the whole pipeline, so it is wrapped like any other reply.
            default ->
                ctx.channel()
                        .writeAndFlush(FtpReply.of(
                                533,
                                "Command protection level denied for reason: "
                                        + "GSSAPI protected commands required."));
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (!(msg instanceof FtpReply reply)) {
            ctx.write(msg, promise);
            return;
        }
        String code = context.confidential() ? "632" : "631";
        String[] lines = reply.toWire().split("(?<=\r\n)");
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < lines.length; i++) {
            byte[] token = context.wrap(lines[i].getBytes(StandardCharsets.UTF_8));
            out.append(code)
                    .append(i < lines.length - 1 ? '-' : ' ')
                    .append(Base64.getEncoder().encodeToString(token))
                    .append("\r\n");
        }
        ByteBuf buf = ByteBufUtil.writeAscii(ctx.alloc(), out);
        ctx.write(buf, promise);
    }
}
