package org.ferry.mover.data;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import java.io.IOException;

/**
 * Puts cached MODE E data connections (GFD.020 "Extended Block Mode", data connection reuse) to
 * work for a new transfer: the handlers a connection ended its last transfer with stay in its
 * pipeline and are handed the new one (a sending connection's {@link ModeESender}; a receiving one's
 * {@link ModeEBlockWriter} and {@link ModeEEodCounter}, then its gate opens), so no handler is added
 * or removed per file. Runs at once when called on the connection's event loop (a server session's
 * data connections live on its control channel's loop), else as a task there. Stateless.
 */
final class ModeEReuse {

    private ModeEReuse() {}

    /** Hands a cached sending connection the next transfer's blocks; it starts at once (the channel is active). */
    static void forSending(Channel channel, DataTransfer transfer, SourceReader reader, ModeEDealer dealer) {
        transfer.register(channel);
        onLoop(channel, new ServeSending(channel, transfer, reader, dealer));
    }

    /**
     * The sending side's hand-over, a named class rather than a capturing lambda: it runs once per
     * cached file, and C1 (bin/ferry-gridftp's JIT) allocates a lambda through a method handle.
     */
    private record ServeSending(Channel channel, DataTransfer transfer, SourceReader reader, ModeEDealer dealer)
            implements Runnable {
        @Override
        public void run() {
            if (!channel.isActive()
                    || !(channel.pipeline().get(ModeESender.NAME) instanceof ModeESender sender)
                    || !sender.serve(reader, dealer, transfer)) {
                transfer.fail(
                        new IOException("cached MODE E data connection to " + channel.remoteAddress() + " was closed"));
            }
        }
    }

    /**
     * Hands a cached receiving connection's handlers the next transfer, then opens its gate, which
     * replays frames that arrived early and resumes reading.
     */
    static void forReceiving(Channel channel, DataTransfer transfer, DataSink sink, ModeEEndTracker tracker) {
        transfer.register(channel);
        onLoop(channel, new ServeReceiving(channel, transfer, sink, tracker));
    }

    /** The receiving side's hand-over; a named class for the reason {@link ServeSending} is one. */
    private record ServeReceiving(Channel channel, DataTransfer transfer, DataSink sink, ModeEEndTracker tracker)
            implements Runnable {
        @Override
        public void run() {
            if (!channel.isActive() && ModeEReceiveGate.closedWhileIdle(channel)) {
                // The sender dropped this idle connection (its parallelism shrank) or closed it after
                // its EOD, and the gate saw it before this task ran (a loaded loop does I/O first):
                // it carries none of the transfer.
                return;
            }
            ChannelPipeline pipeline = channel.pipeline();
            ChannelHandlerContext gate = pipeline.context(ModeEReceiveGate.NAME);
            if (gate == null
                    || !(pipeline.get(ModeEBlockWriter.NAME) instanceof ModeEBlockWriter writer)
                    || !(pipeline.get(ModeEEodCounter.NAME) instanceof ModeEEodCounter counter)
                    || !channel.isActive()) {
                transfer.fail(new IOException(
                        "cached MODE E data connection from " + channel.remoteAddress() + " was closed"));
                return;
            }
            writer.serve(sink, transfer);
            counter.serve(tracker, transfer);
            ((ModeEReceiveGate) gate.handler()).open(gate);
        }
    }

    private static void onLoop(Channel channel, Runnable work) {
        if (channel.eventLoop().inEventLoop()) {
            work.run();
        } else {
            channel.eventLoop().execute(work);
        }
    }
}
