package org.ferry.mover.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.MessageToMessageDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Assembles control channel lines (from a {@code LineBasedFrameDecoder} in front, delimiters
 * stripped) into {@link FtpReply}s following RFC 959 section 4.2: a line {@code "NNN-text"} opens a
 * multi-line reply that ends at the first line {@code "NNN text"} (or exactly {@code "NNN"}) with the
 * same code; lines in between need not start with a code (GridFTP 112 perf marker lines start with a
 * space). A single-line reply is {@code "NNN text"}. Lines are UTF-8. A first line without a
 * three-digit code fails with {@link CorruptedFrameException}.
 */
public final class FtpReplyDecoder extends MessageToMessageDecoder<ByteBuf> {

    /** Bound on the lines of one reply, so a hostile server cannot grow memory without limit. */
    static final int MAX_LINES = 100_000;

    private List<String> pending;
    private String endPrefix;
    private int pendingCode;

    /** Creates a decoder; it keeps state and serves one channel. */
    public FtpReplyDecoder() {
        super(ByteBuf.class);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out) {
        String line = frame.toString(StandardCharsets.UTF_8);
        if (line.endsWith("\r")) {
            line = line.substring(0, line.length() - 1); // tolerate a frame split at the CR
        }
        if (pending != null) {
            pending.add(line);
            if (line.equals(endPrefix.trim()) || line.startsWith(endPrefix)) {
                out.add(FtpReply.fromWire(pending));
                pending = null;
            } else if (pending.size() > MAX_LINES) {
                throw new CorruptedFrameException("reply " + pendingCode + " longer than " + MAX_LINES + " lines");
            }
            return;
        }
        int code = parseCode(line);
        if (line.length() > 3 && line.charAt(3) == '-') {
            pending = new ArrayList<>();
            pending.add(line);
            pendingCode = code;
            endPrefix = line.substring(0, 3) + " ";
        } else if (line.length() == 3 || line.charAt(3) == ' ') {
            out.add(FtpReply.fromWire(List.of(line)));
        } else {
            throw new CorruptedFrameException("malformed reply line: " + abbreviate(line));
        }
    }

    private static int parseCode(String line) {
        // ASCII digits only: Character.isDigit (and Integer.parseInt) also take e.g. Arabic-Indic
        // digits, which would turn a garbage line into a valid-looking reply code.
        if (line.length() < 3
                || !isAsciiDigit(line.charAt(0))
                || !isAsciiDigit(line.charAt(1))
                || !isAsciiDigit(line.charAt(2))
                || line.charAt(0) == '0'
                || line.charAt(0) > '6') {
            throw new CorruptedFrameException("reply line without a code: " + abbreviate(line));
        }
        return Integer.parseInt(line.substring(0, 3));
    }

    private static boolean isAsciiDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static String abbreviate(String line) {
        return line.length() > 80 ? line.substring(0, 80) + "..." : line;
    }
}
