package org.ferry.mover.stripe;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;

/**
 * Installs the internal link's framing and codec: a 4-byte big-endian length in front of every
 * message (at most {@link LinkCodec#MAX_FRAME_BYTES}), then {@link LinkCodec}. Used identically by
 * both ends.
 */
public final class LinkFraming {

    private LinkFraming() {}

    /**
     * @param pipeline a new link connection's pipeline; handlers are added last
     */
    public static void install(ChannelPipeline pipeline) {
        pipeline.addLast("linkFrameDecoder", new LengthFieldBasedFrameDecoder(LinkCodec.MAX_FRAME_BYTES, 0, 4, 0, 4))
                .addLast("linkFramePrepender", new LengthFieldPrepender(4))
                .addLast("linkCodec", new LinkCodec());
    }
}
