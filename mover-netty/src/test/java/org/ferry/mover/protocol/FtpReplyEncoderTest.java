package org.ferry.mover.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The encoder writes every reply as {@link FtpReply#toWire} spells it (RFC 959 section 4.2). */
class FtpReplyEncoderTest {

    private static final String ALPHABET = "abc XYZ 012.:;-\r\n\u00e9\u4e2d";

    @Test
    void encodedBytesAreTheWireText() {
        Random random = new Random(959);
        EmbeddedChannel channel = new EmbeddedChannel(new FtpReplyEncoder());
        for (int i = 0; i < 2_000; i++) {
            List<String> lines = new ArrayList<>();
            int count = random.nextInt(4) == 0 ? 2 + random.nextInt(3) : 1;
            for (int l = 0; l < count; l++) {
                StringBuilder line = new StringBuilder();
                int length = random.nextInt(30);
                for (int c = 0; c < length; c++) {
                    line.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
                }
                lines.add(line.toString());
            }
            FtpReply reply = new FtpReply(100 + random.nextInt(600), lines);
            channel.writeOutbound(reply);
            ByteBuf written = channel.readOutbound();
            try {
                assertThat(written.toString(StandardCharsets.UTF_8)).isEqualTo(reply.toWire());
            } finally {
                written.release();
            }
        }
        channel.finishAndReleaseAll();
    }
}
