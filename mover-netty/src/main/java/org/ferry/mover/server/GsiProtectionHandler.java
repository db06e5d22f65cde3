package org.ferry.mover.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.ferry.gsi.context.GsiContextException;
import org.ferry.gsi.context.SecurityContext;
import org.ferry.mover.protocol.FtpCommand;
import org.ferry.mover.protocol.FtpReply;

/**
 * Protected control channel after {@code 235} (RFC 2228 sections 3, 4; gridftp-protocol.md 4.3):
 * unwraps {@code ENC}/{@code MIC}/{@code CONF} commands into plain {@link FtpCommand}s and wraps
 * every reply line separately as {@code 632 <base64>} ({@code 631} without confidentiality),
 * all but the last line of a multi-line reply as {@code 632-<base64>}, as globus-gridftp-server
 * does. Clear commands are refused with 533: accepting them would let anyone on the path inject
 * commands into an authenticated session. Runs on the channel's event loop, in front of the
 * session handler.
 */
public final class GsiProtectionHandler extends ChannelDuplexHandler {
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
                try {
                    byte[] plain = context.unwrap(Base64.getDecoder().decode(command.argument().strip()));
                    String line = new String(plain, StandardCharsets.UTF_8);
                    // Unwrapped text may end with NUL (dCache secure_command) and CRLF.
                    line = line.replace("\0", "");
                    while (line.endsWith("\n") || line.endsWith("\r")) {
                        line = line.substring(0, line.length() - 1);
                    }
                    ctx.fireChannelRead(FtpCommand.parse(line));
                } catch (GsiContextException | IllegalArgumentException e) {
                    // Clear (written from here, it skips this handler): a failed unwrap may have
                    // ended the TLS session, so nothing can be wrapped any more.
                    ctx.writeAndFlush(FtpReply.of(535, "Failed to unwrap command: " + e.getMessage()));
                }
            }
            // Through the whole pipeline, so it is wrapped like any other reply.
            default -> ctx.channel().writeAndFlush(FtpReply.of(533, "Command protection level denied for reason: "
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
            out.append(code).append(i < lines.length - 1 ? '-' : ' ')
                    .append(Base64.getEncoder().encodeToString(token)).append("\r\n");
        }
        ByteBuf buf = ByteBufUtil.writeAscii(ctx.alloc(), out);
        ctx.write(buf, promise);
    }
}
