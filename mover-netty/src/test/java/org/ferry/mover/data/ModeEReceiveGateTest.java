package org.ferry.mover.data;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A cached receiving MODE E connection between transfers (GFD.020 "Extended Block Mode", data
 * connection reuse) on an {@link EmbeddedChannel} with the pipeline an accepted connection gets
 * ({@link InboundHold}, then {@link ModeEReceiverInitializer}'s handlers), so the test decides the
 * order in which the next file's blocks, the sender's drop and the end of input arrive relative to
 * the hand-over to the next transfer.
 */
class ModeEReceiveGateTest {

    private final byte[] first = new byte[16];
    private final byte[] second = new byte[16];
    private final ModeECache cache = new ModeECache();

    /** A file of {@code data} in one block, then EOF(1)|EOD: a pipelined sender's whole file on one connection. */
    private static ByteBuf file(byte[] data) {
        return Unpooled.wrappedBuffer(
                ModeEFrameDecoderTest.header(0, data.length, 0),
                Unpooled.wrappedBuffer(data),
                ModeEFrameDecoderTest.header(ModeEHeader.EOF | ModeEHeader.EOD, 0, 1));
    }

    private static ByteBuf drop() {
        return ModeEFrameDecoderTest.header(ModeEHeader.CLOSE | ModeEHeader.EOD, 0, 0);
    }

    private static DataSink into(byte[] target) {
        return (data, offset) -> data.get(target, (int) offset, data.remaining());
    }

    private EmbeddedChannel accepted(DataTransfer transfer) {
        EmbeddedChannel ch = new EmbeddedChannel();
        ch.config().setAutoRead(false);
        ch.pipeline().addFirst(InboundHold.NAME, new InboundHold());
        transfer.register(ch);
        ch.pipeline().addLast(new ModeEReceiverInitializer(into(first), new ModeEEndTracker(transfer), transfer));
        InboundHold.release(ch);
        ch.config().setAutoRead(true);
        return ch;
    }

    /** What {@link DataChannels#receive} does with the cache for the next transfer. */
    private DataTransfer next() {
        DataTransfer transfer = new DataTransfer(null, cache, ModeECache.Direction.RECEIVE);
        ModeEEndTracker tracker = new ModeEEndTracker(transfer);
        for (Channel channel : cache.takeAll(ModeECache.Direction.RECEIVE)) {
            ModeEReuse.forReceiving(channel, transfer, into(second), tracker);
        }
        return transfer;
    }

    @Test
    void theNextFilesBlocksSurviveTheSendersDropAndCloseBeforeTheHandOver() throws Exception {
        DataTransfer one = new DataTransfer(null, cache, ModeECache.Direction.RECEIVE);
        EmbeddedChannel ch = accepted(one);
        // all of it arrives in one read, before the next transfer takes the connection: the first
        // file, the second file, the drop, the end of input
        ch.writeInbound(Unpooled.wrappedBuffer(file(new byte[] {1, 2, 3}), file(new byte[] {4, 5, 6, 7}), drop()));
        ch.pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
        assertThat(one.result()).isCompletedWithValue(3L);
        assertThat(ch.isOpen()).as("kept: it holds the second file's blocks").isTrue();

        DataTransfer two = next();
        ch.runPendingTasks();
        assertThat(two.result()).isCompletedWithValue(4L);
        assertThat(List.of(second[0], second[1], second[2], second[3]))
                .containsExactly((byte) 4, (byte) 5, (byte) 6, (byte) 7);
        assertThat(ch.isOpen()).as("closed after the drop that followed").isFalse();
        assertThat(cache.isEmpty()).isTrue();
    }

    @Test
    void anIdleConnectionTheSenderDropsBeforeTheHandOverIsSkipped() throws Exception {
        DataTransfer one = new DataTransfer(null, cache, ModeECache.Direction.RECEIVE);
        EmbeddedChannel ch = accepted(one);
        ch.writeInbound(file(new byte[] {1, 2, 3}));
        assertThat(one.result()).isCompletedWithValue(3L);
        assertThat(cache.size()).isEqualTo(1);
        DataTransfer two = new DataTransfer(null, cache, ModeECache.Direction.RECEIVE);
        List<Channel> taken = cache.takeAll(ModeECache.Direction.RECEIVE);
        // the sender drops it after the hand-over was queued but before it ran
        ch.writeInbound(drop());
        assertThat(ch.isOpen()).isFalse();
        ModeEReuse.forReceiving(taken.get(0), two, into(second), new ModeEEndTracker(two));
        ch.runPendingTasks();
        assertThat(two.isDone())
                .as("not failed: the connection carried none of it")
                .isFalse();
    }

    @Test
    void anIdleConnectionWhoseInputEndsClosesAtOnceAndIsSkipped() throws Exception {
        DataTransfer one = new DataTransfer(null, cache, ModeECache.Direction.RECEIVE);
        EmbeddedChannel ch = accepted(one);
        ch.writeInbound(file(new byte[] {1, 2, 3}));
        assertThat(one.result()).isCompletedWithValue(3L);
        // the sender closes it after its EOD without a drop header (dCache's way)
        ch.pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
        assertThat(ch.isOpen()).as("nothing held: closed at once").isFalse();
        DataTransfer two = new DataTransfer(null, cache, ModeECache.Direction.RECEIVE);
        ModeEReuse.forReceiving(ch, two, into(second), new ModeEEndTracker(two));
        ch.runPendingTasks();
        assertThat(two.isDone())
                .as("not failed: the connection carried none of it")
                .isFalse();
    }

    @Test
    void aConnectionWhoseInputEndsBeforeItsEodFailsTheTransfer() {
        DataTransfer one = new DataTransfer(null, cache, ModeECache.Direction.RECEIVE);
        EmbeddedChannel ch = accepted(one);
        ch.writeInbound(Unpooled.wrappedBuffer(
                ModeEFrameDecoderTest.header(0, 2, 0), Unpooled.wrappedBuffer(new byte[] {1, 2})));
        ch.pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
        assertThat(ch.isOpen()).isFalse();
        assertThat(one.result()).isCompletedExceptionally();
    }
}
