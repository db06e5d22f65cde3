package org.ferry.mover.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;
import java.nio.charset.StandardCharsets;

/** Writes {@link FtpReply} objects as UTF-8 text lines ending CRLF (RFC 959 section 4.2). Stateless. */
@Sharable
public final class FtpReplyEncoder extends MessageToByteEncoder<FtpReply> {

    /** Creates the encoder. */
    public FtpReplyEncoder() {
        super(FtpReply.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, FtpReply reply, ByteBuf out) {
        String text = reply.lines().get(0);
        if (reply.lines().size() == 1 && text.indexOf('\r') < 0 && text.indexOf('\n') < 0) {
            // the common reply (150, 226, ...) straight into the buffer, as toWire would spell it
            int code = reply.code();
            out.writeByte('0' + code / 100);
            out.writeByte('0' + code / 10 % 10);
            out.writeByte('0' + code % 10);
            out.writeByte(' ');
            out.writeCharSequence(text, StandardCharsets.UTF_8);
            out.writeByte('\r');
            out.writeByte('\n');
            return;
        }
        out.writeCharSequence(reply.toWire(), StandardCharsets.UTF_8);
    }
}
