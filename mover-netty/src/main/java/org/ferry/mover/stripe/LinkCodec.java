package org.ferry.mover.stripe;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.MessageToMessageCodec;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Encodes and decodes {@link LinkMessage}s to and from one frame each (the framing, a 4-byte
 * big-endian length, is done by the handlers around it; see {@link #MAX_FRAME_BYTES}). Layout: one
 * type byte, then the record's fields in declaration order: {@code long}/{@code int} big-endian,
 * strings as a 2-byte length plus UTF-8, byte arrays as a 2-byte length plus bytes. A frame with
 * an unknown type, a short field or trailing bytes fails with {@link CorruptedFrameException}.
 * Stateless and {@link io.netty.channel.ChannelHandler.Sharable sharable}.
 */
@io.netty.channel.ChannelHandler.Sharable
public final class LinkCodec extends MessageToMessageCodec<ByteBuf, LinkMessage> {

    /** Upper bound on one frame; link messages are small (paths, addresses, counters). */
    public static final int MAX_FRAME_BYTES = 256 * 1024;

    private static final int CHALLENGE = 1;
    private static final int AUTH = 2;
    private static final int READY = 3;
    private static final int LISTEN = 10;
    private static final int LISTENING = 11;
    private static final int CLOSE_LISTENER = 12;
    private static final int RECEIVE = 13;
    private static final int SEND = 14;
    private static final int ABORT = 15;
    private static final int PROGRESS = 20;
    private static final int DONE = 21;
    private static final int FAILED = 22;

    /** Creates the codec. */
    public LinkCodec() {
        super(ByteBuf.class, LinkMessage.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, LinkMessage msg, List<Object> out) {
        ByteBuf buf = ctx.alloc().buffer();
        try {
            encode(msg, buf);
        } catch (RuntimeException e) {
            buf.release();
            throw e;
        }
        out.add(buf);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf msg, List<Object> out) {
        out.add(decode(msg));
    }

    /**
     * Writes one message's frame body.
     *
     * @param msg the message
     * @param buf where to write
     */
    public static void encode(LinkMessage msg, ByteBuf buf) {
        if (msg instanceof LinkMessage.Challenge m) {
            buf.writeByte(CHALLENGE);
            bytes(buf, m.nonce());
        } else if (msg instanceof LinkMessage.Auth m) {
            buf.writeByte(AUTH);
            bytes(buf, m.mac());
        } else if (msg instanceof LinkMessage.Ready) {
            buf.writeByte(READY);
        } else if (msg instanceof LinkMessage.Listen m) {
            buf.writeByte(LISTEN);
            buf.writeLong(m.id());
        } else if (msg instanceof LinkMessage.Listening m) {
            buf.writeByte(LISTENING);
            buf.writeLong(m.id());
            string(buf, m.host());
            buf.writeInt(m.port());
        } else if (msg instanceof LinkMessage.CloseListener m) {
            buf.writeByte(CLOSE_LISTENER);
            buf.writeLong(m.id());
        } else if (msg instanceof LinkMessage.Receive m) {
            buf.writeByte(RECEIVE);
            buf.writeLong(m.id());
            buf.writeLong(m.listenerId());
            string(buf, m.path());
            buf.writeLong(m.baseOffset());
        } else if (msg instanceof LinkMessage.Send m) {
            buf.writeByte(SEND);
            buf.writeLong(m.id());
            string(buf, m.path());
            buf.writeLong(m.offset());
            buf.writeLong(m.length());
            buf.writeInt(m.blockSizeBytes());
            buf.writeInt(m.stripeIndex());
            buf.writeInt(m.stripeCount());
            string(buf, m.host());
            buf.writeInt(m.port());
            buf.writeInt(m.parallelism());
            buf.writeLong(m.eofCount());
        } else if (msg instanceof LinkMessage.Abort m) {
            buf.writeByte(ABORT);
            buf.writeLong(m.id());
        } else if (msg instanceof LinkMessage.Progress m) {
            buf.writeByte(PROGRESS);
            buf.writeLong(m.id());
            buf.writeLong(m.bytes());
            string(buf, m.ranges());
        } else if (msg instanceof LinkMessage.Done m) {
            buf.writeByte(DONE);
            buf.writeLong(m.id());
            buf.writeLong(m.bytes());
        } else if (msg instanceof LinkMessage.Failed m) {
            buf.writeByte(FAILED);
            buf.writeLong(m.id());
            buf.writeInt(m.replyCode());
            string(buf, m.message());
        } else {
            throw new IllegalArgumentException("not a link message: " + msg);
        }
    }

    /**
     * Reads one frame body (all of it).
     *
     * @param buf the frame body; its reader index is advanced, it is not released
     * @return the message
     * @throws CorruptedFrameException on an unknown type, a truncated field or trailing bytes
     */
    public static LinkMessage decode(ByteBuf buf) {
        try {
            int type = buf.readUnsignedByte();
            LinkMessage msg = switch (type) {
                case CHALLENGE -> new LinkMessage.Challenge(bytes(buf));
                case AUTH -> new LinkMessage.Auth(bytes(buf));
                case READY -> new LinkMessage.Ready();
                case LISTEN -> new LinkMessage.Listen(buf.readLong());
                case LISTENING -> new LinkMessage.Listening(buf.readLong(), string(buf), buf.readInt());
                case CLOSE_LISTENER -> new LinkMessage.CloseListener(buf.readLong());
                case RECEIVE -> new LinkMessage.Receive(buf.readLong(), buf.readLong(), string(buf), buf.readLong());
                case SEND ->
                    new LinkMessage.Send(
                            buf.readLong(),
                            string(buf),
                            buf.readLong(),
                            buf.readLong(),
                            buf.readInt(),
                            buf.readInt(),
                            buf.readInt(),
                            string(buf),
                            buf.readInt(),
                            buf.readInt(),
                            buf.readLong());
                case ABORT -> new LinkMessage.Abort(buf.readLong());
                case PROGRESS -> new LinkMessage.Progress(buf.readLong(), buf.readLong(), string(buf));
                case DONE -> new LinkMessage.Done(buf.readLong(), buf.readLong());
                case FAILED -> new LinkMessage.Failed(buf.readLong(), buf.readInt(), string(buf));
                default -> throw new CorruptedFrameException("unknown link message type " + type);
            };
            if (buf.isReadable()) {
                throw new CorruptedFrameException(buf.readableBytes() + " trailing bytes after link message " + type);
            }
            return msg;
        } catch (IndexOutOfBoundsException e) {
            throw new CorruptedFrameException("truncated link message", e);
        }
    }

    private static void bytes(ByteBuf buf, byte[] value) {
        if (value.length > 0xFFFF) {
            throw new IllegalArgumentException("field too long: " + value.length + " bytes");
        }
        buf.writeShort(value.length);
        buf.writeBytes(value);
    }

    private static byte[] bytes(ByteBuf buf) {
        byte[] value = new byte[buf.readUnsignedShort()];
        buf.readBytes(value);
        return value;
    }

    private static void string(ByteBuf buf, String value) {
        bytes(buf, value.getBytes(StandardCharsets.UTF_8));
    }

    private static String string(ByteBuf buf) {
        return new String(bytes(buf), StandardCharsets.UTF_8);
    }
}
