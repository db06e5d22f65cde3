package org.ferry.mover.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FtpCommandDecoderTest {

    private static void write(EmbeddedChannel ch, String text) {
        ch.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.UTF_8));
    }

    @Test
    void splitsCrlfAndLoneLfLinesAndUppercasesVerb() {
        EmbeddedChannel ch = new EmbeddedChannel(new FtpCommandDecoder());
        write(ch, "user alice\r\nNOOP\nRETR /a b.txt\r\n");
        assertThat((FtpCommand) ch.readInbound()).isEqualTo(new FtpCommand("USER", "alice", false));
        assertThat((FtpCommand) ch.readInbound()).isEqualTo(new FtpCommand("NOOP", "", false));
        assertThat((FtpCommand) ch.readInbound()).isEqualTo(new FtpCommand("RETR", "/a b.txt", false));
        assertThat((Object) ch.readInbound()).isNull();
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void reassemblesLinesSplitAcrossReads() {
        EmbeddedChannel ch = new EmbeddedChannel(new FtpCommandDecoder());
        write(ch, "ST");
        write(ch, "OR fi");
        assertThat((Object) ch.readInbound()).isNull();
        write(ch, "le\r");
        assertThat((Object) ch.readInbound()).isNull();
        write(ch, "\nPWD\r\n");
        assertThat((FtpCommand) ch.readInbound()).isEqualTo(new FtpCommand("STOR", "file", false));
        assertThat((FtpCommand) ch.readInbound()).isEqualTo(new FtpCommand("PWD", "", false));
        ch.finish();
    }

    @Test
    void overlongLineYieldsOneMarkerAndDecodingContinues() {
        EmbeddedChannel ch = new EmbeddedChannel(new FtpCommandDecoder(16));
        write(ch, "STOR " + "x".repeat(40));
        write(ch, "y".repeat(40));
        assertThat((Object) ch.readInbound()).isNull();
        write(ch, "zz\r\nNOOP\r\n");
        assertThat((FtpCommand) ch.readInbound()).isEqualTo(FtpCommand.overlong());
        assertThat((FtpCommand) ch.readInbound()).isEqualTo(new FtpCommand("NOOP", "", false));
        write(ch, "RETR " + "a".repeat(20) + "\r\nSYST\r\n");
        assertThat(((FtpCommand) ch.readInbound()).tooLong()).isTrue();
        assertThat((FtpCommand) ch.readInbound()).isEqualTo(new FtpCommand("SYST", "", false));
        ch.finish();
    }

    @Test
    void lineOfExactlyMaxLengthIsAccepted() {
        EmbeddedChannel ch = new EmbeddedChannel(new FtpCommandDecoder(8));
        write(ch, "RETR abc\r\n");
        assertThat((FtpCommand) ch.readInbound()).isEqualTo(new FtpCommand("RETR", "abc", false));
        ch.finish();
    }

    @Test
    void replyEncoderWritesSingleAndMultiLineReplies() {
        EmbeddedChannel ch = new EmbeddedChannel(new FtpReplyEncoder());
        ch.writeOutbound(FtpReply.of(200, "OK."));
        ch.writeOutbound(FtpReply.multiline(211, "Extensions supported", java.util.List.of(" SIZE", " MDTM"), "End."));
        io.netty.buffer.ByteBuf a = ch.readOutbound();
        io.netty.buffer.ByteBuf b = ch.readOutbound();
        assertThat(a.toString(StandardCharsets.UTF_8)).isEqualTo("200 OK.\r\n");
        assertThat(b.toString(StandardCharsets.UTF_8))
                .isEqualTo("211-Extensions supported\r\n SIZE\r\n MDTM\r\n211 End.\r\n");
        a.release();
        b.release();
        ch.finish();
    }
}
