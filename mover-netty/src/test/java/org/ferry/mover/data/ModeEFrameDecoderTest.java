package org.ferry.mover.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import java.io.ByteArrayOutputStream;
import org.junit.jupiter.api.Test;

/** {@link ModeEFrameDecoder} and {@link ModeEFrameEncoder} on an EmbeddedChannel (GFD.020 headers). */
class ModeEFrameDecoderTest {

    static ByteBuf header(int descriptor, long count, long offset) {
        return Unpooled.buffer(17).writeByte(descriptor).writeLong(count).writeLong(offset);
    }

    @Test
    void headerSplitAcrossReadsAndPayloadStreamedInPieces() {
        EmbeddedChannel ch = new EmbeddedChannel(new ModeEFrameDecoder());
        ByteBuf h = header(0, 10, 1000);
        while (h.isReadable()) {
            ch.writeInbound(h.readRetainedSlice(1)); // one byte per read
        }
        h.release();
        assertThat((ModeEHeader) ch.readInbound()).isEqualTo(new ModeEHeader(0, 10, 1000));
        ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {0, 1, 2, 3}));
        ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {4, 5, 6, 7, 8, 9}));
        ModeEPayload first = ch.readInbound();
        ModeEPayload second = ch.readInbound();
        assertThat(first.offset()).isEqualTo(1000);
        assertThat(first.content().readableBytes()).isEqualTo(4);
        assertThat(second.offset()).isEqualTo(1004);
        assertThat(second.content().readableBytes()).isEqualTo(6);
        first.release();
        second.release();
        assertThat((Object) ch.readInbound()).isNull();
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void twoBlocksAndEndInOneRead() {
        EmbeddedChannel ch = new EmbeddedChannel(new ModeEFrameDecoder());
        ByteBuf all = Unpooled.wrappedBuffer(
                header(0, 2, 0),
                Unpooled.wrappedBuffer(new byte[] {7, 8}),
                header(0, 1, 2),
                Unpooled.wrappedBuffer(new byte[] {9}),
                header(ModeEHeader.EOF | ModeEHeader.EOD, 0, 3));
        ch.writeInbound(all);
        assertThat((ModeEHeader) ch.readInbound()).isEqualTo(ModeEHeader.data(2, 0));
        ModeEPayload p1 = ch.readInbound();
        assertThat(ByteBufToBytes(p1.content())).containsExactly(7, 8);
        p1.release();
        assertThat((ModeEHeader) ch.readInbound()).isEqualTo(ModeEHeader.data(1, 2));
        ModeEPayload p2 = ch.readInbound();
        assertThat(p2.offset()).isEqualTo(2);
        p2.release();
        ModeEHeader eof = ch.readInbound();
        assertThat(eof.has(ModeEHeader.EOF)).isTrue();
        assertThat(eof.eodCount()).isEqualTo(3);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void dataWithEodIsSplitIntoDataThenEnd() {
        EmbeddedChannel ch = new EmbeddedChannel(new ModeEFrameDecoder());
        ch.writeInbound(Unpooled.wrappedBuffer(header(ModeEHeader.EOD, 3, 5), Unpooled.wrappedBuffer(new byte[3])));
        assertThat((ModeEHeader) ch.readInbound()).isEqualTo(ModeEHeader.data(3, 5));
        ModeEPayload p = ch.readInbound();
        p.release();
        ModeEHeader end = ch.readInbound();
        assertThat(end.descriptor()).isEqualTo(ModeEHeader.EOD);
        assertThat(end.count()).isZero();
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void rejectsUnsupportedDescriptor() {
        EmbeddedChannel ch = new EmbeddedChannel(new ModeEFrameDecoder());
        assertThatThrownBy(() -> ch.writeInbound(header(ModeEHeader.RESTART_MARKER, 0, 0)))
                .isInstanceOf(DecoderException.class)
                .hasMessageContaining("descriptor");
        // after a rejection further input is discarded, not parsed
        ch.writeInbound(header(0, 1, 0));
        assertThat((Object) ch.readInbound()).isNull();
        ch.finishAndReleaseAll();
    }

    @Test
    void rejectsOversizedAndNegativeCounts() {
        EmbeddedChannel ch = new EmbeddedChannel(new ModeEFrameDecoder());
        assertThatThrownBy(() -> ch.writeInbound(header(0, -1, 0))).isInstanceOf(DecoderException.class);
        ch.finishAndReleaseAll();
        EmbeddedChannel limited = new EmbeddedChannel(new ModeEFrameDecoder(100));
        assertThatThrownBy(() -> limited.writeInbound(header(0, 10, 95)))
                .isInstanceOf(DecoderException.class)
                .hasMessageContaining("beyond limit");
        limited.finishAndReleaseAll();
        EmbeddedChannel overflow = new EmbeddedChannel(new ModeEFrameDecoder());
        assertThatThrownBy(() -> overflow.writeInbound(header(0, Long.MAX_VALUE, Long.MAX_VALUE - 1)))
                .isInstanceOf(DecoderException.class);
        overflow.finishAndReleaseAll();
    }

    @Test
    void rejectsEofWithPayload() {
        EmbeddedChannel ch = new EmbeddedChannel(new ModeEFrameDecoder());
        assertThatThrownBy(() -> ch.writeInbound(header(ModeEHeader.EOF, 4, 1))).isInstanceOf(DecoderException.class);
        ch.finishAndReleaseAll();
    }

    @Test
    void encoderWritesSeventeenBytesBigEndian() {
        EmbeddedChannel ch = new EmbeddedChannel(new ModeEFrameEncoder());
        ch.writeOutbound(new ModeEHeader(0x48, 0, 2));
        ByteBuf out = ch.readOutbound();
        assertThat(ByteBufToBytes(out)).containsExactly(0x48, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2);
        out.release();
        assertThat(ch.finish()).isFalse();
    }

    static int[] ByteBufToBytes(ByteBuf buf) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = buf.readerIndex(); i < buf.writerIndex(); i++) {
            out.write(buf.getUnsignedByte(i));
        }
        byte[] bytes = out.toByteArray();
        int[] result = new int[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            result[i] = bytes[i] & 0xff;
        }
        return result;
    }
}
