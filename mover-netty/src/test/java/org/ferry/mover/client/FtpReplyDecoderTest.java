package org.ferry.mover.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.LineBasedFrameDecoder;
import java.nio.charset.StandardCharsets;
import org.ferry.mover.protocol.FtpCommandEncoder;
import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.protocol.FtpReplyDecoder;
import org.junit.jupiter.api.Test;

/** {@link FtpReplyDecoder} behind a line splitter, as in the control channel (RFC 959 section 4.2). */
class FtpReplyDecoderTest {

    private final EmbeddedChannel ch = new EmbeddedChannel(new LineBasedFrameDecoder(1024), new FtpReplyDecoder());

    private void write(String s) {
        ch.writeInbound(Unpooled.copiedBuffer(s, StandardCharsets.UTF_8));
    }

    @Test
    void singleLineReplies() {
        write("220 vm GridFTP Server ready.\r\n230 User anonymous logged in.\r\n200\r\n");
        FtpReply banner = ch.readInbound();
        assertThat(banner.code()).isEqualTo(220);
        assertThat(banner.text()).isEqualTo("vm GridFTP Server ready.");
        assertThat(((FtpReply) ch.readInbound()).code()).isEqualTo(230);
        FtpReply bare = ch.readInbound();
        assertThat(bare.code()).isEqualTo(200);
        assertThat(bare.text()).isEmpty();
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void perfMarkerWithSpaceLinesSplitAcrossReads() {
        String marker = "112-Perf Marker\r\n Timestamp: 1732241234.5\r\n Stripe Index: 0\r\n"
                + " Stripe Bytes Transferred: 123456789\r\n Total Stripe Count: 1\r\n112 End.\r\n226 Transfer Complete.\r\n";
        for (int i = 0; i < marker.length(); i += 7) {
            write(marker.substring(i, Math.min(marker.length(), i + 7)));
        }
        FtpReply perf = ch.readInbound();
        assertThat(perf.code()).isEqualTo(112);
        assertThat(perf.isPreliminary()).isTrue();
        assertThat(perf.lines()).hasSize(6).contains(" Stripe Bytes Transferred: 123456789");
        AtomicBytes bytes = new AtomicBytes();
        new MarkerParser(bytes).accept(perf);
        assertThat(bytes.value).isEqualTo(123456789L);
        assertThat(((FtpReply) ch.readInbound()).code()).isEqualTo(226);
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void multiLineErrorAndLinesWithOtherCodesInside() {
        write("550-GlobusError: v=1 c=PATH_NOT_FOUND\r\n550-GridFTP-Errno: 2\r\n200 not the end\r\n550 End.\r\n");
        FtpReply reply = ch.readInbound();
        assertThat(reply.code()).isEqualTo(550);
        assertThat(reply.lines()).hasSize(4);
        assertThat(reply.text())
                .isEqualTo("GlobusError: v=1 c=PATH_NOT_FOUND\nGridFTP-Errno: 2\n200 not the end\nEnd.");
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void mlstReplyKeepsUtf8EntryLine() {
        write("250-status of /d/héllo wörld\r\n Type=file;Size=3; /d/héllo wörld\r\n250 End.\r\n");
        FtpReply reply = ch.readInbound();
        assertThat(reply.lines().get(1)).isEqualTo(" Type=file;Size=3; /d/héllo wörld");
        ch.finish();
    }

    @Test
    void rejectsALineWithoutCode() {
        assertThatThrownBy(() -> write("hello\r\n")).isInstanceOf(DecoderException.class);
        assertThatThrownBy(() -> write("22x oops\r\n")).isInstanceOf(DecoderException.class);
        assertThatThrownBy(() -> write("220oops\r\n")).isInstanceOf(DecoderException.class);
        ch.finishAndReleaseAll();
    }

    @Test
    void commandEncoderRefusesLineBreaks() {
        EmbeddedChannel out = new EmbeddedChannel(new FtpCommandEncoder());
        out.writeOutbound("MLSD /a b/é");
        io.netty.buffer.ByteBuf line = out.readOutbound();
        assertThat(line.toString(StandardCharsets.UTF_8)).isEqualTo("MLSD /a b/é\r\n");
        line.release();
        assertThatThrownBy(() -> out.writeOutbound("RETR /x\r\nDELE /y")).isInstanceOf(Exception.class);
        out.finishAndReleaseAll();
    }

    private static final class AtomicBytes implements TransferListener {
        long value = -1;

        @Override
        public void onProgress(long bytesTransferred) {
            value = bytesTransferred;
        }
    }

    /** Found by ReplyParsingFuzzTest: Character.isDigit let "\u0662\u0660\u0660 x" decode as a 200 reply. */
    @Test
    void nonAsciiDigitsAreNoReplyCode() {
        assertThatThrownBy(() -> write("\u0662\u0660\u0660 ok\r\n"))
                .isInstanceOf(DecoderException.class)
                .hasMessageContaining("without a code");
        assertThatThrownBy(() -> write("\uff12\uff10\uff10 ok\r\n")).isInstanceOf(DecoderException.class);
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }
}
