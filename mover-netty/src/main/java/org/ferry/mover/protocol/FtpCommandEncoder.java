package org.ferry.mover.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.EncoderException;
import io.netty.handler.codec.MessageToByteEncoder;

/**
 * Writes a command string as one control channel line, UTF-8, ending in CRLF (RFC 959 section
 * 4.1). Refuses commands containing CR or LF, which would smuggle a second command (e.g. through a
 * path). Note that globus-gridftp-server's clear-text control channel drops bytes outside printable
 * ASCII, so non-ASCII paths cannot be addressed there (they do appear in MLSD data).
 */
@ChannelHandler.Sharable
public final class FtpCommandEncoder extends MessageToByteEncoder<String> {

    /** Creates the encoder; stateless and shareable. */
    public FtpCommandEncoder() {
        super(String.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, String command, ByteBuf out) {
        if (command.indexOf('\r') >= 0 || command.indexOf('\n') >= 0) {
            throw new EncoderException("command contains CR or LF");
        }
        ByteBufUtil.writeUtf8(out, command);
        out.writeByte('\r').writeByte('\n');
    }
}
