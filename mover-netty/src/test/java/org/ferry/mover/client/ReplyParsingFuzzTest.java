package org.ferry.mover.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.LineBasedFrameDecoder;
import io.netty.handler.codec.TooLongFrameException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;
import org.ferry.mover.protocol.FileInfo;
import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.protocol.FtpReplyDecoder;
import org.ferry.mover.testing.LeakCapture;

/**
 * Properties of the client's reply parsing: {@link FtpReplyDecoder} behind the same
 * {@code LineBasedFrameDecoder} as in {@link ControlChannel} reassembles random well-formed RFC 959
 * replies (single and multi-line, body lines with or without codes, CRLF or LF, split at random)
 * exactly; random garbage either decodes into replies with a three-digit ASCII code or fails with
 * a decoder exception, releasing every buffer; {@link MlsxParser} parses random well-formed fact
 * lines exactly and malformed ones into an entry with sane values or an
 * {@link IllegalArgumentException}. 300 + 400 + 500 + 500 cases, fixed seed.
 */
class ReplyParsingFuzzTest {

    private static final int MAX_LINE_BYTES = 512;

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

    @Property(tries = 300, seed = "20261122")
    void wellFormedRepliesDecodeExactly(
            @ForAll("replies") List<List<String>> wireReplies,
            @ForAll boolean bareLf,
            @ForAll("cuts") List<Integer> cuts) {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        List<FtpReply> replies = new ArrayList<>();
        for (List<String> wireLines : wireReplies) {
            for (String line : wireLines) {
                wire.writeBytes((line + (bareLf ? "\n" : "\r\n")).getBytes(StandardCharsets.UTF_8));
            }
            replies.add(FtpReply.fromWire(wireLines));
        }
        EmbeddedChannel channel = channel();
        List<ByteBuf> written = feed(channel, wire.toByteArray(), cuts);
        channel.checkException();
        assertThat(channel.finish()).isEqualTo(!replies.isEmpty());
        List<FtpReply> decoded = new ArrayList<>();
        for (Object message; (message = channel.readInbound()) != null; ) {
            decoded.add((FtpReply) message);
        }
        assertThat(decoded).containsExactlyElementsOf(replies);
        assertThat(written).allSatisfy(buf -> assertThat(buf.refCnt()).isZero());
    }

    @Property(tries = 400, seed = "20261122")
    void garbageDecodesToCodedRepliesOrFailsClearly(
            @ForAll("garbage") byte[] input, @ForAll("cuts") List<Integer> cuts) {
        EmbeddedChannel channel = channel();
        List<ByteBuf> written = feed(channel, input, cuts);
        try {
            channel.finish();
        } catch (DecoderException e) {
            assertThat(e).isInstanceOfAny(CorruptedFrameException.class, TooLongFrameException.class);
        }
        for (Object message; (message = channel.readInbound()) != null; ) {
            FtpReply reply = (FtpReply) message;
            String first = reply.toString().split("\n", -1)[0];
            assertThat(first).matches("(?s)[1-6][0-9]{2}([ -].*)?");
            assertThat(reply.code()).isEqualTo(Integer.parseInt(first.substring(0, 3)));
        }
        assertThat(written).allSatisfy(buf -> assertThat(buf.refCnt()).isZero());
    }

    @Property(tries = 500, seed = "20261122")
    void wellFormedFactLinesParseExactly(@ForAll("entries") Entry entry) {
        FileInfo info = MlsxParser.parse(entry.line());
        assertThat(info).isEqualTo(entry.expected());
    }

    @Property(tries = 500, seed = "20261122")
    void malformedFactLinesParseToSaneValuesOrFailClearly(@ForAll("factGarbage") String line) {
        FileInfo info;
        try {
            info = MlsxParser.parse(line);
        } catch (IllegalArgumentException e) {
            assertThat(line).doesNotContain(" ");
            return;
        }
        assertThat(info.name()).isEqualTo(line.substring(line.indexOf(' ') + 1));
        assertThat(info.sizeBytes()).as("size of %s", line).isNotNegative();
        assertThat(info.unixMode()).as("mode of %s", line).isBetween(-1, 07777);
    }

    private static EmbeddedChannel channel() {
        return new EmbeddedChannel(new LineBasedFrameDecoder(MAX_LINE_BYTES), new FtpReplyDecoder());
    }

    /** Writes {@code input} in pieces; after a decoder failure the rest is dropped, as a closed channel would. */
    private static List<ByteBuf> feed(EmbeddedChannel channel, byte[] input, List<Integer> cuts) {
        List<ByteBuf> written = new ArrayList<>();
        int position = 0;
        List<Integer> pieces = new ArrayList<>(cuts);
        pieces.add(Integer.MAX_VALUE);
        for (int cut : pieces) {
            int end = (int) Math.min(input.length, (long) position + cut);
            if (end <= position) {
                continue;
            }
            ByteBuf buf = ByteBufAllocator.DEFAULT.buffer(end - position);
            buf.writeBytes(input, position, end - position);
            written.add(buf);
            position = end;
            try {
                channel.writeInbound(buf);
            } catch (DecoderException e) {
                // the clear failures: malformed reply line, reply too long, line too long
                assertThat(e).isInstanceOfAny(CorruptedFrameException.class, TooLongFrameException.class);
                break;
            }
        }
        return written;
    }

    @Provide
    Arbitrary<List<Integer>> cuts() {
        return Arbitraries.oneOf(
                        Arbitraries.integers().between(1, 3),
                        Arbitraries.integers().between(1, 400))
                .list()
                .ofMaxSize(20);
    }

    private static Arbitrary<String> text() {
        return Arbitraries.strings().withChars("abc XYZ-019:;=.\u00e9\u4e2d\t").ofMaxLength(30);
    }

    @Provide
    Arbitrary<List<List<String>>> replies() {
        Arbitrary<Integer> codes = Arbitraries.integers().between(100, 599);
        Arbitrary<List<String>> single = Combinators.combine(codes, text(), Arbitraries.of(true, false))
                .as((code, text, bare) -> List.of(bare ? "" + code : code + " " + text));
        Arbitrary<List<String>> multi = Combinators.combine(
                        codes, text(), bodyLines(), text(), Arbitraries.of(true, false))
                .as((code, first, body, last, bare) -> {
                    List<String> lines = new ArrayList<>();
                    lines.add(code + "-" + first);
                    for (String line : body) {
                        // a body line that looks like the end line would end the reply (RFC 959 section 4.2)
                        lines.add(line.startsWith(code + " ") || line.equals("" + code) ? " " + line : line);
                    }
                    lines.add(bare ? "" + code : code + " " + last);
                    return lines;
                });
        return Arbitraries.oneOf(single, multi).list().ofMaxSize(6);
    }

    private static Arbitrary<List<String>> bodyLines() {
        Arbitrary<String> coded = Combinators.combine(
                        Arbitraries.integers().between(100, 599), Arbitraries.of(" ", "-"), text())
                .as((c, sep, t) -> c + sep + t);
        return Arbitraries.oneOf(text().map(t -> " " + t), text(), coded).list().ofMaxSize(5);
    }

    @Provide
    Arbitrary<byte[]> garbage() {
        // Mostly plausible line starts, so that decoding gets past the first line often.
        Arbitrary<String> start = Arbitraries.of(
                "200 ",
                "211-",
                "211 ",
                "112-",
                "226",
                "550-",
                " ",
                "",
                "099 x",
                "999 ",
                "12",
                "\u0662\u0660\u0660 ",
                "\uff11\uff12\uff13 ",
                "\u0663\u0660\u0660-",
                "2\u00b2\u00b3 ",
                "abc",
                "200\t",
                "\0");
        Arbitrary<String> rest = Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(8), Arbitraries.of("x".repeat(MAX_LINE_BYTES + 1), "\r", "\u00e9"));
        Arbitrary<String> end = Arbitraries.of("\r\n", "\n", "\r\r\n", "");
        Arbitrary<String> line = Combinators.combine(start, rest, end).as((a, b, c) -> a + b + c);
        return line.list().ofMaxSize(12).map(list -> String.join("", list).getBytes(StandardCharsets.UTF_8));
    }

    /** A generated fact line and what it must parse to. */
    record Entry(String line, FileInfo expected) {}

    @Provide
    Arbitrary<Entry> entries() {
        Arbitrary<String[]> type = Arbitraries.of(
                new String[] {"file", "FILE"},
                new String[] {"dir", "DIRECTORY"},
                new String[] {"cdir", "CURRENT_DIRECTORY"},
                new String[] {"pdir", "PARENT_DIRECTORY"},
                new String[] {"slink", "SYMLINK"},
                new String[] {"OS.unix=slink:/x", "SYMLINK"},
                new String[] {"fifo", "OTHER"});
        Arbitrary<Long> size = Arbitraries.longs().between(0, Long.MAX_VALUE);
        Arbitrary<Instant> modified =
                Arbitraries.longs().between(0, 253402300799L).map(Instant::ofEpochSecond);
        Arbitrary<Integer> mode = Arbitraries.integers().between(0, 07777);
        Arbitrary<String> name =
                Arbitraries.strings().withChars("ab .;=\u00e9-/").ofMinLength(1).ofMaxLength(12);
        Arbitrary<String> caseOf = Arbitraries.of("lower", "upper", "mixed");
        return Combinators.combine(type, size, modified, mode, name, caseOf).as((t, s, m, u, n, c) -> {
            String line = fact("Type", c) + "=" + t[0] + ";" + fact("Size", c) + "=" + s + ";"
                    + fact("Modify", c) + "="
                    + java.time.format.DateTimeFormatter.ofPattern("yyyyMMddHHmmss")
                            .withZone(java.time.ZoneOffset.UTC)
                            .format(m)
                    + ";"
                    + fact("UNIX.mode", c) + "=0" + Integer.toOctalString(u) + ";" + fact("Perm", c) + "=r; " + n;
            return new Entry(line, new FileInfo(n, FileInfo.Type.valueOf(t[1]), s, m, u, "r", null, null, null));
        });
    }

    private static String fact(String name, String caseOf) {
        return switch (caseOf) {
            case "lower" -> name.toLowerCase(java.util.Locale.ROOT);
            case "upper" -> name.toUpperCase(java.util.Locale.ROOT);
            default -> name;
        };
    }

    @Provide
    Arbitrary<String> factGarbage() {
        Arbitrary<String> key = Arbitraries.of("type", "Size", "MODIFY", "unix.mode", "perm", "", "=", "x");
        Arbitrary<String> value = Arbitraries.oneOf(
                Arbitraries.of(
                        "file",
                        "dir",
                        "OS.unix=slink",
                        "-1",
                        "-0777",
                        "99999999999999999999",
                        "0x10",
                        "20250101",
                        "20251301000000",
                        "20250101000000.",
                        "20250101000000.-5",
                        "20250101000000.123456789123",
                        "99991231235959.9",
                        "\0",
                        "+5",
                        "0777",
                        "7777777777",
                        "-9223372036854775808",
                        ""),
                Arbitraries.strings().ofMaxLength(4));
        Arbitrary<String> fact =
                Combinators.combine(key, Arbitraries.of("=", "", "=="), value).as((k, eq, v) -> k + eq + v);
        Arbitrary<String> facts = fact.list().ofMaxSize(6).map(list -> String.join(";", list));
        Arbitrary<String> tail = Arbitraries.of(" name", "; name with spaces", ";", "", " ", "  two", ";\u00e9 x");
        return Combinators.combine(facts, tail).as((f, t) -> f + t);
    }
}
