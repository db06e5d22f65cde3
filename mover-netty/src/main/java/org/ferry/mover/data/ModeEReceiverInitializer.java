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
        // by name: a cached connection's next transfer finds them by name (see ModeESenderInitializer)
        ch.pipeline()
                .addLast(new ModeEFrameDecoder())
                .addLast(ModeEReceiveGate.NAME, new ModeEReceiveGate())
                .addLast(ModeEBlockWriter.NAME, new ModeEBlockWriter(sink, transfer))
                .addLast(ModeEEodCounter.NAME, new ModeEEodCounter(tracker, transfer));
    }
}
