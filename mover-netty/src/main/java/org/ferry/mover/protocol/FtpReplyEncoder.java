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
        out.writeCharSequence(reply.toWire(), StandardCharsets.UTF_8);
    }
}
