package org.ferry.mover.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/**
 * The MODE E receiving pipeline (decoder, block writer, EOD counter) on EmbeddedChannels: the end
 * rules of GFD.020 as globus and dCache senders exercise them.
 */
class ModeEReceiverTest {

    private final byte[] target = new byte[16];
    private final DataSink sink = (data, offset) -> data.get(target, (int) offset, data.remaining());
    private final DataTransfer transfer = new DataTransfer(null);
    private final ModeEEndTracker tracker = new ModeEEndTracker(transfer);

    private EmbeddedChannel connection() {
        EmbeddedChannel ch = new EmbeddedChannel(
                new ModeEFrameDecoder(), new ModeEBlockWriter(sink, transfer), new ModeEEodCounter(tracker, transfer));
        transfer.register(ch);
        return ch;
    }

    private static ByteBuf block(int descriptor, long offset, byte... data) {
        return Unpooled.wrappedBuffer(
                ModeEFrameDecoderTest.header(descriptor, data.length, offset), Unpooled.wrappedBuffer(data));
    }

    private static ByteBuf end(int descriptor, long offset) {
        return ModeEFrameDecoderTest.header(descriptor, 0, offset);
    }

    @Test
    void eofBeforeOtherEodsWaitsForThemGlobusStyleConnectionsLeftOpen() throws Exception {
        EmbeddedChannel a = connection();
        EmbeddedChannel b = connection();
        a.writeInbound(block(0, 4, (byte) 5, (byte) 6));
        a.writeInbound(end(ModeEHeader.EOF | ModeEHeader.EOD, 2)); // 0x48, connections stay open
        assertThat(transfer.isDone()).isFalse();
        b.writeInbound(block(0, 0, (byte) 1, (byte) 2, (byte) 3, (byte) 4));
        assertThat(transfer.isDone()).isFalse();
        b.writeInbound(end(ModeEHeader.EOD, 0));
        assertThat(transfer.result().get()).isEqualTo(6L);
        assertThat(target).startsWith(1, 2, 3, 4, 5, 6);
        assertThat(a.isOpen()).isFalse(); // the transfer closes what it owns
        a.finishAndReleaseAll();
        b.finishAndReleaseAll();
    }

    @Test
    void dcacheStyleCloseFlagsAndThirdConnectionArrivingLate() throws Exception {
        EmbeddedChannel a = connection();
        a.writeInbound(block(0, 0, (byte) 9));
        a.writeInbound(end(ModeEHeader.EOF | ModeEHeader.EOD | ModeEHeader.CLOSE, 3));
        a.close();
        EmbeddedChannel b = connection();
        b.writeInbound(end(ModeEHeader.EOD | ModeEHeader.CLOSE, 0));
        b.close();
        assertThat(transfer.isDone()).isFalse(); // all open connections ended, but EOF said 3
        EmbeddedChannel c = connection();
        c.writeInbound(block(ModeEHeader.EOD, 1, (byte) 8)); // data and EOD in one header
        assertThat(transfer.result().get()).isEqualTo(2L);
        assertThat(target).startsWith(9, 8);
        c.finishAndReleaseAll();
    }

    @Test
    void truncatedBlockFailsTheTransfer() {
        EmbeddedChannel a = connection();
        ByteBuf partial =
                Unpooled.wrappedBuffer(ModeEFrameDecoderTest.header(0, 8, 0), Unpooled.wrappedBuffer(new byte[3]));
        a.writeInbound(partial);
        a.close();
        assertThatThrownBy(() -> transfer.result().get())
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(IOException.class)
                .hasMessageContaining("before EOD");
        a.finishAndReleaseAll();
    }

    @Test
    void badDescriptorFailsTheTransfer() {
        EmbeddedChannel a = connection();
        a.writeInbound(end(0x80, 0));
        assertThatThrownBy(() -> transfer.result().get())
                .hasCauseInstanceOf(IOException.class)
                .hasMessageContaining("descriptor");
        assertThat(a.isOpen()).isFalse();
        a.finishAndReleaseAll();
    }

    @Test
    void dataAfterEodFailsTheTransfer() {
        EmbeddedChannel a = connection();
        a.writeInbound(end(ModeEHeader.EOD, 0));
        a.writeInbound(block(0, 0, (byte) 1));
        assertThatThrownBy(() -> transfer.result().get()).hasMessageContaining("after EOD");
        a.finishAndReleaseAll();
    }

    @Test
    void sinkFailureFailsTheTransfer() {
        DataTransfer failing = new DataTransfer(null);
        DataSink broken = (ByteBuffer data, long offset) -> {
            throw new IOException("disk full");
        };
        EmbeddedChannel a = new EmbeddedChannel(
                new ModeEFrameDecoder(),
                new ModeEBlockWriter(broken, failing),
                new ModeEEodCounter(new ModeEEndTracker(failing), failing));
        a.writeInbound(block(0, 0, (byte) 1));
        assertThatThrownBy(() -> failing.result().get()).hasMessageContaining("disk full");
        a.finishAndReleaseAll();
    }
}
