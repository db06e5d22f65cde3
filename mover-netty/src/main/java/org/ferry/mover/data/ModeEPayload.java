package org.ferry.mover.data;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.DefaultByteBufHolder;

/**
 * A piece of a MODE E block's payload as {@link ModeEFrameDecoder} streams it: the bytes and the
 * offset of their first byte in the transferred stream. A block may arrive as many pieces; they
 * are never aggregated (blocks can be gigabytes). The holder owns one reference to its content:
 * whoever consumes it releases it.
 */
public final class ModeEPayload extends DefaultByteBufHolder {

    private final long offset;

    /**
     * @param offset stream offset of {@code content}'s first readable byte
     * @param content the bytes; ownership passes to this holder
     */
    public ModeEPayload(long offset, ByteBuf content) {
        super(content);
        this.offset = offset;
    }

    /** @return stream offset of the first byte */
    public long offset() {
        return offset;
    }

    @Override
    public ModeEPayload replace(ByteBuf content) {
        return new ModeEPayload(offset, content);
    }

    @Override
    public String toString() {
        return "ModeEPayload(offset=" + offset + ", bytes=" + content().readableBytes() + ")";
    }
}
