package org.ferry.mover.stripe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.DecoderException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.ferry.mover.testing.LeakCapture;
import org.junit.jupiter.api.Test;

/** The internal link's frames and codec, both directions, and its authentication. */
class LinkCodecTest {

    private static final List<LinkMessage> ALL = List.of(
            new LinkMessage.Ready(),
            new LinkMessage.Listen(7),
            new LinkMessage.Listening(7, "127.0.0.1", 50123),
            new LinkMessage.CloseListener(7),
            new LinkMessage.Receive(8, 7, "/dir/ümlaut file.bin", 1L << 40),
            new LinkMessage.Send(9, "/a", 1L << 33, 64L << 20, 262144, 1, 2, "10.0.0.2", 2811, 4, 8),
            new LinkMessage.Abort(9),
            new LinkMessage.Progress(9, 123456789L, "0-262144,524288-786432"),
            new LinkMessage.Done(9, 33554432),
            new LinkMessage.Failed(9, 550, "/a: No such file or directory."));

    @Test
    void everyMessageSurvivesFramingAndCodingInOrder() {
        try (LeakCapture leaks = LeakCapture.open()) {
            EmbeddedChannel writer = new EmbeddedChannel();
            LinkFraming.install(writer.pipeline());
            EmbeddedChannel reader = new EmbeddedChannel();
            LinkFraming.install(reader.pipeline());
            for (LinkMessage message : ALL) {
                writer.writeOutbound(message);
            }
            writer.writeOutbound(new LinkMessage.Challenge(new byte[] {1, 2, 3}), new LinkMessage.Auth(new byte[32]));
            // deliver the bytes one at a time: frames must reassemble across reads
            ByteBuf out;
            while ((out = writer.readOutbound()) != null) {
                while (out.isReadable()) {
                    reader.writeInbound(out.readRetainedSlice(1));
                }
                out.release();
            }
            for (LinkMessage expected : ALL) {
                assertThat((LinkMessage) reader.readInbound()).isEqualTo(expected);
            }
            LinkMessage.Challenge challenge = reader.readInbound();
            assertThat(challenge.nonce()).containsExactly(1, 2, 3);
            LinkMessage.Auth auth = reader.readInbound();
            assertThat(auth.mac()).hasSize(32);
            assertThat((Object) reader.readInbound()).isNull();
            writer.finishAndReleaseAll();
            reader.finishAndReleaseAll();
            leaks.assertNoLeaks();
        }
    }

    @Test
    void rejectsUnknownTypesTruncationAndTrailingBytes() {
        ByteBuf unknown = Unpooled.wrappedBuffer(new byte[] {99});
        assertThatThrownBy(() -> LinkCodec.decode(unknown)).isInstanceOf(CorruptedFrameException.class);
        ByteBuf truncated = Unpooled.wrappedBuffer(new byte[] {10, 0, 0});
        assertThatThrownBy(() -> LinkCodec.decode(truncated)).isInstanceOf(CorruptedFrameException.class);
        ByteBuf trailing = Unpooled.wrappedBuffer(new byte[] {3, 0});
        assertThatThrownBy(() -> LinkCodec.decode(trailing)).isInstanceOf(CorruptedFrameException.class);

        EmbeddedChannel reader = new EmbeddedChannel();
        LinkFraming.install(reader.pipeline());
        ByteBuf frame = Unpooled.buffer().writeInt(1).writeByte(42);
        assertThatThrownBy(() -> reader.writeInbound(frame)).isInstanceOf(DecoderException.class);
        reader.finishAndReleaseAll();
    }

    @Test
    void onlyTheSecretAnswersTheChallenge() {
        LinkAuth auth = new LinkAuth("0123456789abcdef-secret".getBytes(StandardCharsets.UTF_8));
        LinkAuth other = new LinkAuth("0123456789abcdef-wrong!".getBytes(StandardCharsets.UTF_8));
        byte[] nonce = auth.nonce();
        assertThat(auth.verify(nonce, auth.answer(nonce))).isTrue();
        assertThat(auth.verify(nonce, other.answer(nonce))).isFalse();
        assertThat(auth.verify(auth.nonce(), auth.answer(nonce))).isFalse();
        assertThatThrownBy(() -> new LinkAuth(new byte[15])).isInstanceOf(IllegalArgumentException.class);
    }
}
