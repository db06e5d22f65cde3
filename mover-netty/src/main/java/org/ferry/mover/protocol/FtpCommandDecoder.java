package org.ferry.mover.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Splits the control channel byte stream into {@link FtpCommand}s (RFC 959 section 4.1: commands
 * are lines ending CRLF; a lone LF is accepted too, as globus and most servers do). The text is
 * decoded as UTF-8 (RFC 2640). A line longer than its limit is discarded up to and including its
 * line end and produces one {@link FtpCommand#overlong()} so that the session can answer 500 and
 * continue (unlike {@code LineBasedFrameDecoder}, nothing is thrown).
 *
 * <p>Two limits: ordinary commands get {@code maxLineBytes}; the security commands of RFC 2228
 * section 3 ({@code ADAT}, {@code MIC}, {@code CONF}, {@code ENC}) get {@code maxSecurityLineBytes},
 * because their base64 tokens carry TLS handshake flights with whole certificate chains (GFD.020
 * and the GSI profile of RFC 2228): a 4096-bit CA, an intermediate CA, a proxy chain several deep
 * or VOMS attribute certificates make an ADAT line of several kilobytes, and a MIC or ENC line
 * wraps a whole command. The larger limit still bounds what one line may hold in memory.
 */
public final class FtpCommandDecoder extends ByteToMessageDecoder {

    /** Default maximum command line length in bytes, line terminator excluded. */
    public static final int DEFAULT_MAX_LINE_BYTES = 4096;

    /** Default maximum length of an ADAT, MIC, CONF or ENC line in bytes, line terminator excluded. */
    public static final int DEFAULT_MAX_SECURITY_LINE_BYTES = 128 * 1024;

    private static final String[] SECURITY_VERBS = {"ADAT ", "MIC ", "CONF ", "ENC "};

    private final int maxLineBytes;
    private final int maxSecurityLineBytes;
    private boolean discarding;

    /** A decoder with {@link #DEFAULT_MAX_LINE_BYTES} and {@link #DEFAULT_MAX_SECURITY_LINE_BYTES}. */
    public FtpCommandDecoder() {
        this(DEFAULT_MAX_LINE_BYTES, DEFAULT_MAX_SECURITY_LINE_BYTES);
    }

    /**
     * @param maxLineBytes longest accepted line in bytes, without CRLF, for every command
     * @throws IllegalArgumentException if not positive
     */
    public FtpCommandDecoder(int maxLineBytes) {
        this(maxLineBytes, maxLineBytes);
    }

    /**
     * @param maxLineBytes longest accepted ordinary command line in bytes, without CRLF
     * @param maxSecurityLineBytes longest accepted ADAT, MIC, CONF or ENC line in bytes, without CRLF
     * @throws IllegalArgumentException if a limit is not positive or the security one is the smaller
     */
    public FtpCommandDecoder(int maxLineBytes, int maxSecurityLineBytes) {
        if (maxLineBytes <= 0 || maxSecurityLineBytes < maxLineBytes) {
            throw new IllegalArgumentException("line limits must be positive, the security one at least the other: "
                    + maxLineBytes + ", " + maxSecurityLineBytes);
        }
        this.maxLineBytes = maxLineBytes;
        this.maxSecurityLineBytes = maxSecurityLineBytes;
    }

    /** The limit for the line starting at the reader index: the larger one for security commands. */
    private int limitFor(ByteBuf in) {
        for (String verb : SECURITY_VERBS) {
            if (startsWithIgnoreCase(in, verb)) {
                return maxSecurityLineBytes;
            }
        }
        return maxLineBytes;
    }

    private static boolean startsWithIgnoreCase(ByteBuf in, String prefix) {
        if (in.readableBytes() < prefix.length()) {
            return false;
        }
        int at = in.readerIndex();
        for (int i = 0; i < prefix.length(); i++) {
            int b = in.getByte(at + i);
            if (Character.toUpperCase(b) != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (in.isReadable()) {
            // indexOf scans eight bytes at a time; forEachByte calls a processor per byte
            int eol = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) '\n');
            if (discarding) {
                if (eol < 0) {
                    in.skipBytes(in.readableBytes());
                    return;
                }
                in.readerIndex(eol + 1);
                discarding = false;
                out.add(FtpCommand.overlong());
                continue;
            }
            if (eol < 0) {
                if (in.readableBytes() > limitFor(in) + 1) { // +1: a CR may still be followed by LF
                    in.skipBytes(in.readableBytes());
                    discarding = true;
                }
                return;
            }
            int length = eol - in.readerIndex();
            if (length > 0 && in.getByte(eol - 1) == '\r') {
                length--;
            }
            if (length > limitFor(in)) {
                in.readerIndex(eol + 1);
                out.add(FtpCommand.overlong());
                continue;
            }
            String line = in.toString(in.readerIndex(), length, StandardCharsets.UTF_8);
            in.readerIndex(eol + 1);
            out.add(FtpCommand.parse(line));
        }
    }
}
