package org.ferry.mover.data;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.CorruptedFrameException;
import java.util.List;

/**
 * Splits a MODE E data connection's bytes (GFD.020 "Extended Block Mode") into a {@link ModeEHeader} for every header, followed by the block's payload as one
 * or more {@link ModeEPayload} pieces in arrival order. Payload is streamed as it arrives (retained
 * slices, no copy), never aggregated: blocks may be far larger than memory.
 *
 * <p>A header that carries payload and ends the connection's data at once (descriptor EOD with
 * count &gt; 0, which GFD.020 allows) is emitted as a data header, then its payload, then a
 * zero-count header with the end flags: downstream handlers can count an EOD knowing that all data
 * before it on that connection has already passed.
 *
 * <p>Rejects, with {@link CorruptedFrameException}: descriptors with EOR, restart-marker or
 * suspected-error bits (globus never sends them and we cannot honour them), counts or offsets above
 * 2^63-1, blocks ending beyond {@code maxEndOffset}, and EOF headers carrying payload. After a
 * rejection it discards all further input.
 */
public final class ModeEFrameDecoder extends ByteToMessageDecoder {

    private static final int ACCEPTED_FLAGS = ModeEHeader.EOF | ModeEHeader.EOD | ModeEHeader.CLOSE;

    private final long maxEndOffset;
    private long payloadRemaining;
    private long payloadOffset;
    private int pendingEndFlags;
    private boolean failed;

    /** A decoder accepting any block position up to 2^63-1. */
    public ModeEFrameDecoder() {
        this(Long.MAX_VALUE);
    }

    /**
     * @param maxEndOffset the largest stream offset a block may end at (exclusive end), so that
     *     a hostile header cannot make the receiver write beyond a known window
     */
    public ModeEFrameDecoder(long maxEndOffset) {
        if (maxEndOffset < 0) {
            throw new IllegalArgumentException("maxEndOffset must be >= 0");
        }
        this.maxEndOffset = maxEndOffset;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        while (in.isReadable()) {
            if (payloadRemaining > 0) {
                int n = (int) Math.min(in.readableBytes(), payloadRemaining);
                out.add(new ModeEPayload(payloadOffset, in.readRetainedSlice(n)));
                payloadOffset += n;
                payloadRemaining -= n;
                emitPendingEnd(out);
            } else if (in.readableBytes() >= ModeEHeader.LENGTH) {
                ModeEHeader header = new ModeEHeader(in.readUnsignedByte(), in.readLong(), in.readLong());
                validate(header);
                if (header.count() > 0 && header.descriptor() != 0) {
                    pendingEndFlags = header.descriptor();
                    header = ModeEHeader.data(header.count(), header.offset());
                }
                out.add(header);
                payloadRemaining = header.count();
                payloadOffset = header.offset();
            } else {
                return; // wait for the rest of the header
            }
        }
    }

    private void emitPendingEnd(List<Object> out) {
        if (payloadRemaining == 0 && pendingEndFlags != 0) {
            out.add(new ModeEHeader(pendingEndFlags, 0, payloadOffset));
            pendingEndFlags = 0;
        }
    }

    private void validate(ModeEHeader header) {
        if ((header.descriptor() & ~ACCEPTED_FLAGS) != 0) {
            fail("unsupported MODE E descriptor 0x" + Integer.toHexString(header.descriptor()));
        }
        if (header.count() < 0 || header.offset() < 0) {
            fail("MODE E header count/offset out of range: " + header);
        }
        if (header.has(ModeEHeader.EOF)) {
            if (header.count() != 0) {
                fail("MODE E EOF header with payload: " + header);
            }
            return; // its offset field is the EOD count, not a position
        }
        if (header.count() > maxEndOffset - header.offset()) {
            fail("MODE E block [" + header.offset() + ", +" + header.count() + ") beyond limit " + maxEndOffset);
        }
    }

    private void fail(String message) {
        failed = true;
        throw new CorruptedFrameException(message);
    }
}
