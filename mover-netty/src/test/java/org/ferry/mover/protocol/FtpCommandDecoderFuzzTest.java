package org.ferry.mover.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;
import org.ferry.mover.testing.LeakCapture;

/**
 * Property: whatever bytes arrive on the control channel, however they are split across reads
 * (CR, LF, NUL, lines far over the limit, invalid UTF-8), {@link FtpCommandDecoder} emits exactly
 * the commands and overlong-line signals that a line-by-line reading of the whole input gives
 * (RFC 959 section 4.1), nothing escapes the pipeline as an exception, and every input buffer is
 * released. 400 + 100 generated inputs; the seed is fixed so a CI run is reproducible (change it
 * locally to explore further).
 */
class FtpCommandDecoderFuzzTest {

    /** Small, so that the generated lines are overlong often. */
    private static final int MAX_LINE_BYTES = 32;

    private LeakCapture leaks;

    @BeforeProperty
    void captureLeaks() {
        leaks = LeakCapture.open();
    }

    @AfterProperty
    void checkLeaks() {
        try {
            leaks.assertNoLeaks();
        } finally {
            leaks.close();
        }
    }

    @Property(tries = 400, seed = "20261122")
    void arbitraryBytesSplitArbitrarilyDecodeLikeWholeLines(
            @ForAll("controlBytes") byte[] input, @ForAll("cuts") List<Integer> cuts) {
        assertDecodesLikeReference(new FtpCommandDecoder(MAX_LINE_BYTES), MAX_LINE_BYTES, MAX_LINE_BYTES, input, cuts);
    }

    @Property(tries = 400, seed = "20261124")
    void securityCommandsGetTheirLargerLimit(
            @ForAll("securityBytes") byte[] input, @ForAll("cuts") List<Integer> cuts) {
        assertDecodesLikeReference(
                new FtpCommandDecoder(MAX_LINE_BYTES, 3 * MAX_LINE_BYTES),
                MAX_LINE_BYTES,
                3 * MAX_LINE_BYTES,
                input,
                cuts);
    }

    @Property(tries = 100, seed = "20261122")
    void defaultLimitWithLinesAroundFourKilobytes(
            @ForAll("longLines") byte[] input, @ForAll("cuts") List<Integer> cuts) {
        assertDecodesLikeReference(
                new FtpCommandDecoder(),
                FtpCommandDecoder.DEFAULT_MAX_LINE_BYTES,
                FtpCommandDecoder.DEFAULT_MAX_SECURITY_LINE_BYTES,
                input,
                cuts);
    }

    private static void assertDecodesLikeReference(
            FtpCommandDecoder decoder, int maxLineBytes, int maxSecurityLineBytes, byte[] input, List<Integer> cuts) {
        EmbeddedChannel channel = new EmbeddedChannel(decoder);
        List<ByteBuf> written = new ArrayList<>();
        int position = 0;
        for (int cut : cuts) {
            int end = Math.min(input.length, position + cut);
            position = write(channel, written, input, position, end);
        }
        write(channel, written, input, position, input.length);
        channel.checkException(); // nothing may reach the tail of the pipeline
        channel.finish();
        List<FtpCommand> decoded = new ArrayList<>();
        for (Object message; (message = channel.readInbound()) != null; ) {
            decoded.add((FtpCommand) message);
        }
        assertThat(decoded).containsExactlyElementsOf(reference(input, maxLineBytes, maxSecurityLineBytes));
        assertThat(written)
                .allSatisfy(buf ->
                        assertThat(buf.refCnt()).as("input buffer released").isZero());
    }

    private static int write(EmbeddedChannel channel, List<ByteBuf> written, byte[] input, int from, int to) {
        if (to > from) {
            // An allocator buffer (not a wrapped array) so that the leak detector tracks it.
            ByteBuf buf = ByteBufAllocator.DEFAULT.buffer(to - from);
            buf.writeBytes(input, from, to - from);
            written.add(buf);
            channel.writeInbound(buf);
        }
        return to;
    }

    /**
     * The decoder's contract on the whole input at once: LF ends a line, one CR before it is dropped;
     * a line starting (in any case) with ADAT, MIC, CONF or ENC and a space has the security limit.
     */
    private static List<FtpCommand> reference(byte[] input, int maxLineBytes, int maxSecurityLineBytes) {
        List<FtpCommand> commands = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < input.length; i++) {
            if (input[i] != '\n') {
                continue;
            }
            int end = i > start && input[i - 1] == '\r' ? i - 1 : i;
            String head = new String(input, start, Math.min(5, i - start), StandardCharsets.ISO_8859_1)
                    .toUpperCase(java.util.Locale.ROOT);
            boolean security =
                    java.util.stream.Stream.of("ADAT ", "MIC ", "CONF ", "ENC ").anyMatch(head::startsWith);
            if (end - start > (security ? maxSecurityLineBytes : maxLineBytes)) {
                commands.add(FtpCommand.overlong());
            } else {
                commands.add(FtpCommand.parse(new String(input, start, end - start, StandardCharsets.UTF_8)));
            }
            start = i + 1;
        }
        return commands; // an unterminated tail is no command
    }

    @Provide
    Arbitrary<byte[]> controlBytes() {
        // Pieces with the bytes that matter to framing and decoding, glued together at random.
        Arbitrary<byte[]> piece = Arbitraries.oneOf(
                Arbitraries.of(
                                "\r\n",
                                "\n",
                                "\r",
                                "\0",
                                "\r\r\n",
                                " ",
                                "NOOP",
                                "retr ",
                                "STOR a/../b",
                                "USER x",
                                "PASS secret",
                                "\u00e9\u4e2d",
                                "\ud83d\ude00")
                        .map(s -> s.getBytes(StandardCharsets.UTF_8)),
                Arbitraries.of(
                        new byte[] {(byte) 0xff},
                        new byte[] {(byte) 0xc3},
                        new byte[] {(byte) 0xe2, (byte) 0x82},
                        new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
                        new byte[] {(byte) 0xc0, (byte) 0xaf}),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(8),
                Arbitraries.integers()
                        .between(MAX_LINE_BYTES - 2, 3 * MAX_LINE_BYTES)
                        .map(n -> {
                            byte[] run = new byte[n];
                            Arrays.fill(run, (byte) 'x');
                            return run;
                        }));
        return piece.list().ofMaxSize(40).map(FtpCommandDecoderFuzzTest::concat);
    }

    @Provide
    Arbitrary<byte[]> securityBytes() {
        // Lines that start with a security verb (or almost) followed by runs around both limits.
        Arbitrary<byte[]> verb = Arbitraries.of(
                        "ADAT ", "adat ", "MIC ", "Conf ", "ENC ", "ADA", "MICX ", "ENC", "NOOP ")
                .map(v -> v.getBytes(StandardCharsets.US_ASCII));
        Arbitrary<byte[]> run = Arbitraries.integers()
                .between(MAX_LINE_BYTES - 8, 4 * MAX_LINE_BYTES)
                .map(n -> {
                    byte[] bytes = new byte[n];
                    Arrays.fill(bytes, (byte) 'Q');
                    return bytes;
                });
        Arbitrary<byte[]> end = Arbitraries.of("\r\n", "\n", "\r", "").map(e -> e.getBytes(StandardCharsets.US_ASCII));
        Arbitrary<byte[]> line = Combinators.combine(verb, run, end).as((v, r, e) -> concat(List.of(v, r, e)));
        return line.list().ofMinSize(1).ofMaxSize(6).map(FtpCommandDecoderFuzzTest::concat);
    }

    @Provide
    Arbitrary<byte[]> longLines() {
        int max = FtpCommandDecoder.DEFAULT_MAX_LINE_BYTES;
        Arbitrary<byte[]> line = Arbitraries.integers()
                .between(max - 3, max + 3)
                .flatMap(n -> Arbitraries.of("\n", "\r\n", "\r\r\n", "").map(end -> {
                    byte[] text = new byte[n];
                    Arrays.fill(text, (byte) 'A');
                    return concat(List.of(text, end.getBytes(StandardCharsets.US_ASCII)));
                }));
        Arbitrary<byte[]> shortLine =
                Arbitraries.of("NOOP\r\n", "PWD\n").map(s -> s.getBytes(StandardCharsets.US_ASCII));
        return Arbitraries.oneOf(line, shortLine)
                .list()
                .ofMinSize(1)
                .ofMaxSize(5)
                .map(FtpCommandDecoderFuzzTest::concat);
    }

    @Provide
    Arbitrary<List<Integer>> cuts() {
        return Arbitraries.oneOf(
                        Arbitraries.integers().between(1, 3),
                        Arbitraries.integers().between(1, 5000))
                .list()
                .ofMaxSize(30);
    }

    private static byte[] concat(List<byte[]> pieces) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] piece : pieces) {
            out.writeBytes(piece);
        }
        return out.toByteArray();
    }
}
