package org.ferry.mover.data;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import java.io.IOException;

/**
 * Puts cached MODE E data connections (GFD.020 "Extended Block Mode", data connection reuse) to
 * work for a new transfer: a sending connection gets the new sender, a receiving one has its
 * per-transfer handlers swapped and its gate opened. Stateless.
 */
final class ModeEReuse {

    private ModeEReuse() {}

    /** Puts a new sender on a cached sending connection; it starts at once (the channel is active). */
    static void forSending(Channel channel, DataTransfer transfer, ModeESender sender) {
        transfer.register(channel);
        channel.eventLoop().execute(() -> {
            if (!channel.isActive()) {
                transfer.fail(
                        new IOException("cached MODE E data connection to " + channel.remoteAddress() + " was closed"));
                return;
            }
            channel.pipeline().addLast(sender);
        });
    }

    /**
     * Swaps a cached receiving connection's per-transfer handlers for this transfer's, then opens its
     * gate, which replays frames that arrived early and resumes reading.
     */
    static void forReceiving(Channel channel, DataTransfer transfer, DataSink sink, ModeEEndTracker tracker) {
        transfer.register(channel);
        channel.eventLoop().execute(() -> {
            ChannelPipeline pipeline = channel.pipeline();
            if (pipeline.get(ModeEBlockWriter.class) != null) {
                pipeline.remove(ModeEBlockWriter.class);
            }
            if (pipeline.get(ModeEEodCounter.class) != null) {
                pipeline.remove(ModeEEodCounter.class);
            }
            pipeline.addLast(new ModeEBlockWriter(sink, transfer), new ModeEEodCounter(tracker, transfer));
            ChannelHandlerContext gate = pipeline.context(ModeEReceiveGate.class);
            if (gate == null || !channel.isActive()) {
                transfer.fail(new IOException(
                        "cached MODE E data connection from " + channel.remoteAddress() + " was closed"));
                return;
            }
            ((ModeEReceiveGate) gate.handler()).open(gate);
        });
    }
}
