package org.ferry.mover.data;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;

/**
 * Writes {@link ModeEHeader}s as the 17-byte big-endian MODE E header (GFD.020, GFD.020 "Extended Block Mode"). Payload is written by the caller right after the header as a plain {@link ByteBuf}
 * or file region, which passes through this encoder untouched (no copy).
 */
@ChannelHandler.Sharable
public final class ModeEFrameEncoder extends MessageToByteEncoder<ModeEHeader> {

    /** This handler's name in a cached sending connection's pipeline. */
    static final String NAME = "modeEEncoder";

    /** Creates the encoder; it is stateless and may be shared. */
    public ModeEFrameEncoder() {
        super(ModeEHeader.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, ModeEHeader header, ByteBuf out) {
        header.writeTo(out);
    }
}
