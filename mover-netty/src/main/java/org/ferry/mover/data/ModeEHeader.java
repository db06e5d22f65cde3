package org.ferry.mover.data;

import io.netty.buffer.ByteBuf;

/**
 * One extended block mode header (GFD.020 "Extended Block Mode"):
 * 17 bytes big-endian, a descriptor byte, a 64-bit byte count of the payload that follows, and a
 * 64-bit offset of that payload in the file. In a header with {@link #EOF} the offset field is
 * instead the number of data connections (EODs) the receiver must see.
 *
 * @param descriptor the descriptor bits ({@link #EOF}, {@link #EOD}, {@link #CLOSE}, ...)
 * @param count payload length in bytes (0..2^63-1)
 * @param offset payload offset in the transferred stream, or the EOD count in an EOF header
 */
public record ModeEHeader(int descriptor, long count, long offset) {

    /** Header length on the wire, in bytes. */
    public static final int LENGTH = 17;
    /** End of record (legacy; never sent by globus). */
    public static final int EOR = 0x80;
    /** End of file: the offset field carries the EOD count. */
    public static final int EOF = 0x40;
    /** Suspected errors in the block (never sent by globus). */
    public static final int SUSPECT_ERRORS = 0x20;
    /** The block is a restart marker (not used in MODE E; markers go on the control channel). */
    public static final int RESTART_MARKER = 0x10;
    /** End of data on this connection for this transfer. */
    public static final int EOD = 0x08;
    /** The sender will close this connection after this header. */
    public static final int CLOSE = 0x04;

    /** @return a data block header (descriptor 0) */
    public static ModeEHeader data(long count, long offset) {
        return new ModeEHeader(0, count, offset);
    }

    /** @return true if {@code flag} is set in the descriptor */
    public boolean has(int flag) {
        return (descriptor & flag) != 0;
    }

    /**
     * Writes the header's 17 bytes, big-endian (GFD.020 "Extended Block Mode"), at the buffer's writer index.
     *
     * @param out where to write; it grows as needed
     */
    public void writeTo(ByteBuf out) {
        out.writeByte(descriptor);
        out.writeLong(count);
        out.writeLong(offset);
    }

    /** @return the EOD count announced by an EOF header (its offset field) */
    public long eodCount() {
        return offset;
    }
}
