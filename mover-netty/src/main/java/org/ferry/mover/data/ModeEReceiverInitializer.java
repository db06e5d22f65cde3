package org.ferry.mover.data;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;

/**
 * Installs decoder, gate (for reuse), block writer and EOD counter on a new MODE E connection.
 */
final class ModeEReceiverInitializer extends ChannelInitializer<Channel> {
    private final DataSink sink;
    private final ModeEEndTracker tracker;
    private final DataTransfer transfer;

    ModeEReceiverInitializer(DataSink sink, ModeEEndTracker tracker, DataTransfer transfer) {
        this.sink = sink;
        this.tracker = tracker;
        this.transfer = transfer;
    }

    @Override
    protected void initChannel(Channel ch) {
        // the gate decides what the peer's close means: it may hold a next file's blocks
        InboundHold.passEndOfInput(ch);
        ch.pipeline()
                .addLast(
                        new ModeEFrameDecoder(),
                        new ModeEReceiveGate(),
                        new ModeEBlockWriter(sink, transfer),
                        new ModeEEodCounter(tracker, transfer));
    }
}
