package org.ferry.mover.client;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.CorruptedFrameException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.ferry.gsi.context.GsiContextException;
import org.ferry.gsi.context.SecurityContext;
import org.ferry.mover.protocol.FtpCommandEncoder;
import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.protocol.FtpReplyDecoder;

/**
 * Client side of the protected control channel (RFC 2228; RFC 2228 sections 3 and 4 (MIC, ENC; 631-633); as the Globus tools behave): sends
 * every command as {@code ENC <base64>} ({@code MIC} without confidentiality) of the wrapped
 * line with its CRLF, and turns {@code 631}/{@code 632}/{@code 633} replies, one token per line,
 * back into the plain reply they carry. A reply token that does not verify fails the channel
 * ({@link ReplyQueue} hands the waiting command an IOException naming it). Sits between
 * {@link FtpReplyDecoder}/{@link FtpCommandEncoder} and the reply queue.
 */
final class ClientGsiHandler extends ChannelDuplexHandler {
    private final SecurityContext context;

    ClientGsiHandler(SecurityContext context) {
        this.context = context;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (msg instanceof String command) {
            byte[] token = context.wrap((command + "\r\n").getBytes(StandardCharsets.UTF_8));
            ctx.write(
                    (context.confidential() ? "ENC " : "MIC ")
                            + Base64.getEncoder().encodeToString(token),
                    promise);
            return;
        }
        ctx.write(msg, promise);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (!(msg instanceof FtpReply reply)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (reply.code() < 631 || reply.code() > 633) {
            // After 235 only failures may come in clear (535 unwrap failure, 421 on close): a clear
            // success reply could have been injected by anyone on the path, so it ends the session.
            if (reply.code() < 400) {
                throw new CorruptedFrameException(
                        "unprotected reply on a GSI-protected control channel: " + reply.code());
            }
            ctx.fireChannelRead(msg);
            return;
        }
        List<String> inner = new ArrayList<>();
        for (String line : reply.lines()) {
            // the first and last lines come without their code prefix; a server may prefix the
            // lines in between too ("632-token")
            String b64 = line.startsWith(reply.code() + "-") ? line.substring(4) : line.strip();
            try {
                String text =
                        new String(context.unwrap(Base64.getDecoder().decode(b64.strip())), StandardCharsets.UTF_8);
                for (String part : text.split("\r\n")) {
                    String clean = part.replace("\0", "");
                    if (!clean.isEmpty()) {
                        inner.add(clean);
                    }
                }
            } catch (GsiContextException | IllegalArgumentException e) {
                // RFC 2228 5.3: the reply failed its security check; the TLS session is gone with it.
                throw new CorruptedFrameException(
                        "protected " + reply.code() + " reply from "
                                + ctx.channel().remoteAddress() + " failed the security check (altered or replayed"
                                + " on the way?): " + e.getMessage(),
                        e);
            }
        }
        FtpReply plain;
        try {
            plain = FtpReply.fromWire(inner);
        } catch (IllegalArgumentException e) {
            throw new CorruptedFrameException("protected reply without a reply code inside");
        }
        ctx.fireChannelRead(plain);
    }
}
