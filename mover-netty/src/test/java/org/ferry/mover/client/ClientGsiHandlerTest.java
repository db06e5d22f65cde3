package org.ferry.mover.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.CorruptedFrameException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.ferry.gsi.context.SecurityContext;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.trust.ValidatedChain;
import org.ferry.mover.protocol.FtpReply;
import org.junit.jupiter.api.Test;

/** The client's 631/632 unwrapping and ENC wrapping, with a reversible fake context (no TLS). */
class ClientGsiHandlerTest {

    /** "Wraps" by reversing the bytes: enough to see that every line went through the context. */
    static final class ReversingContext implements SecurityContext {
        @Override
        public byte[] step(byte[] input) {
            return null;
        }

        @Override
        public boolean established() {
            return true;
        }

        @Override
        public byte[] wrap(byte[] plain) {
            return reverse(plain);
        }

        @Override
        public byte[] unwrap(byte[] token) {
            return reverse(token);
        }

        @Override
        public boolean confidential() {
            return true;
        }

        @Override
        public ValidatedChain peer() {
            throw new IllegalStateException();
        }

        @Override
        public Optional<GsiCredential> delegatedCredential() {
            return Optional.empty();
        }

        static byte[] reverse(byte[] in) {
            byte[] out = new byte[in.length];
            for (int i = 0; i < in.length; i++) {
                out[i] = in[in.length - 1 - i];
            }
            return out;
        }
    }

    static String token(String line) {
        return Base64.getEncoder().encodeToString(ReversingContext.reverse(line.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void multiLine632ReplyBecomesThePlainReply() {
        EmbeddedChannel ch = new EmbeddedChannel(new ClientGsiHandler(new ReversingContext()));
        ch.writeInbound(FtpReply.fromWire(List.of(
                "632-" + token("211-Extensions supported\r\n"),
                "632-" + token(" PARALLEL\r\n"),
                "632 " + token("211 End.\r\n"))));
        FtpReply plain = ch.readInbound();
        assertThat(plain.code()).isEqualTo(211);
        assertThat(plain.lines()).containsExactly("Extensions supported", " PARALLEL", "End.");
    }

    @Test
    void commandsGoOutAsEnc() {
        EmbeddedChannel ch = new EmbeddedChannel(new ClientGsiHandler(new ReversingContext()));
        ch.writeOutbound("PWD");
        String sent = ch.readOutbound();
        assertThat(sent).isEqualTo("ENC " + token("PWD\r\n"));
    }

    @Test
    void clearSuccessRepliesAreRefusedButClearFailuresPass() {
        EmbeddedChannel ch = new EmbeddedChannel(new ClientGsiHandler(new ReversingContext()));
        assertThatThrownBy(() -> ch.writeInbound(FtpReply.fromWire(List.of("226 Transfer Complete."))))
                .isInstanceOf(CorruptedFrameException.class)
                .hasMessageContaining("unprotected reply");
        EmbeddedChannel ch2 = new EmbeddedChannel(new ClientGsiHandler(new ReversingContext()));
        ch2.writeInbound(FtpReply.fromWire(List.of("535 Failed to unwrap command")));
        assertThat(((FtpReply) ch2.readInbound()).code()).isEqualTo(535);
    }
}
