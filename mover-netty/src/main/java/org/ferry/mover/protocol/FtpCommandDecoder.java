package org.ferry.mover.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.ByteProcessor;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Splits the control channel byte stream into {@link FtpCommand}s (RFC 959 section 4.1: commands
 * are lines ending CRLF; a lone LF is accepted too, as globus and most servers do). The text is
 * decoded as UTF-8 (RFC 2640). A line longer than {@code maxLineBytes} is discarded up to and
 * including its line end and produces one {@link FtpCommand#overlong()} so that the session can
 * answer 500 and continue (unlike {@code LineBasedFrameDecoder}, nothing is thrown).
 */
public final class FtpCommandDecoder extends ByteToMessageDecoder {

    /** Default maximum command line length in bytes, line terminator excluded. */
    public static final int DEFAULT_MAX_LINE_BYTES = 4096;

    private final int maxLineBytes;
    private boolean discarding;

    /** A decoder with {@link #DEFAULT_MAX_LINE_BYTES}. */
    public FtpCommandDecoder() {
        this(DEFAULT_MAX_LINE_BYTES);
    }

    /**
     * @param maxLineBytes longest accepted line in bytes, without CRLF
     * @throws IllegalArgumentException if not positive
     */
    public FtpCommandDecoder(int maxLineBytes) {
        if (maxLineBytes <= 0) {
            throw new IllegalArgumentException("maxLineBytes must be positive: " + maxLineBytes);
        }
        this.maxLineBytes = maxLineBytes;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (in.isReadable()) {
            int eol = in.forEachByte(ByteProcessor.FIND_LF);
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
                if (in.readableBytes() > maxLineBytes + 1) { // +1: a CR may still be followed by LF
                    in.skipBytes(in.readableBytes());
                    discarding = true;
                }
                return;
            }
            int length = eol - in.readerIndex();
            if (length > 0 && in.getByte(eol - 1) == '\r') {
                length--;
            }
            if (length > maxLineBytes) {
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
