package org.ferry.mover.data.security;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.PendingWriteQueue;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.PromiseNotifier;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;

/**
 * DCAU A/S with PROT C (GFD.020 "DCAU", RFC 2228 section 3 (PROT); GFD.020 GSI appendix): authenticates a data
 * connection with a GSI handshake, including the delegation-flag exchange of reference 4.2 (under
 * TLS 1.3 the acceptor sends one {@code 0x00} byte first; the initiator sends {@code '0'}: no
 * delegation on data channels), then steps out of the pipeline so the rest of the connection is
 * clear bytes, as globus' pass-through.
 *
 * <p>The peer's clear data may follow its last TLS record in the same read, so input goes to the
 * engine one whole TLS record at a time (RFC 8446 section 5.1 / RFC 5246 section 6.2: 5-byte
 * header with a 16-bit length) and whatever follows the exchange is handed on untouched. Until
 * then, writes of the transfer handlers are held and {@code channelActive} is deferred, so a sender
 * starts only on an authenticated connection; so is a close, since in stream mode the end of the
 * data is the close of the connection and a sender with nothing to send closes at once: the peer
 * must see the handshake finish first, or it reads the close as a failed authentication.
 */
final class GsiClearHandshake extends ChannelDuplexHandler {

    private static final int RECORD_HEADER_BYTES = 5;
    private static final int MAX_RECORD_BYTES = RECORD_HEADER_BYTES + (1 << 14) + 2048;
    private static final byte FLAG_NO_DELEGATION = '0';
    private static final byte FLAG_DELEGATE = 'D';

    private enum State {
        HANDSHAKE,
        AWAIT_BYTE,
        AWAIT_FLAG,
        DONE,
        FAILED
    }

    private final SSLEngine engine;
    private final boolean initiator;
    private PendingWriteQueue pending;
    private ByteBuf received;
    private State state = State.HANDSHAKE;
    private boolean started;
    private boolean activeDeferred;
    private ChannelPromise deferredClose;

    /**
     * @param engine     this connection's engine (client mode on the connecting side)
     * @param initiator  true on the connecting side
     */
    GsiClearHandshake(SSLEngine engine, boolean initiator) {
        this.engine = engine;
        this.initiator = initiator;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws SSLException {
        pending = new PendingWriteQueue(ctx);
        received = ctx.alloc().buffer();
        if (ctx.channel().isActive()) {
            start(ctx);
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (received != null) {
            received.release();
            received = null;
        }
        if (!pending.isEmpty()) {
            pending.removeAndFailAll(new ClosedChannelException());
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws SSLException {
        activeDeferred = true; // fired on once authenticated
        start(ctx);
    }

    private void start(ChannelHandlerContext ctx) throws SSLException {
        if (started) {
            return;
        }
        started = true;
        engine.beginHandshake();
        if (initiator) {
            advance(ctx);
        }
        ctx.read(); // an accepted connection may have auto-read off until its transfer attaches
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (state == State.DONE) {
            ctx.write(msg, promise); // between authentication and our removal
        } else {
            pending.add(msg, promise);
        }
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        if (state == State.DONE || state == State.FAILED || !ctx.channel().isActive()) {
            ctx.close(promise);
        } else if (deferredClose == null) {
            deferredClose = promise;
        } else {
            deferredClose.addListener(new PromiseNotifier<>(promise));
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        // Before authentication held writes stay held; handshake records are flushed directly.
        if (state == State.DONE) {
            ctx.flush();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf buf)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        try {
            received.writeBytes(buf);
        } finally {
            buf.release();
        }
        try {
            while (state != State.DONE && state != State.FAILED) {
                ByteBuf record = nextRecord();
                if (record == null) {
                    break;
                }
                try {
                    unwrap(ctx, record);
                } finally {
                    record.release();
                }
            }
        } catch (IOException e) {
            fail(ctx, e);
            return;
        }
        if (state == State.DONE) {
            finish(ctx);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (state != State.DONE) {
            ctx.read();
        }
    }

    /** @return the next whole TLS record, or null if it has not fully arrived */
    private ByteBuf nextRecord() throws IOException {
        if (received.readableBytes() < RECORD_HEADER_BYTES) {
            return null;
        }
        int type = received.getUnsignedByte(received.readerIndex());
        int length = RECORD_HEADER_BYTES + received.getUnsignedShort(received.readerIndex() + 3);
        if (type < 20 || type > 24 || length > MAX_RECORD_BYTES) {
            throw new IOException("not a TLS record (type " + type + "): the peer does not do DCAU");
        }
        if (received.readableBytes() < length) {
            return null;
        }
        return received.readRetainedSlice(length);
    }

    private void unwrap(ChannelHandlerContext ctx, ByteBuf record) throws SSLException, IOException {
        ByteBuffer in = record.nioBuffer();
        ByteBuffer app = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
        while (in.hasRemaining()) {
            SSLEngineResult r = engine.unwrap(in, app);
            if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
                throw new SSLException("peer closed TLS during data channel authentication");
            }
            if (r.getStatus() != SSLEngineResult.Status.OK) {
                throw new SSLException("bad TLS record during data channel authentication: " + r.getStatus());
            }
            runTasks();
            if (r.bytesConsumed() == 0) {
                if (engine.getHandshakeStatus() != HandshakeStatus.NEED_WRAP) {
                    throw new SSLException("TLS engine made no progress during data channel authentication");
                }
                advance(ctx); // the engine must answer before it reads on
            }
        }
        app.flip();
        if (state == State.HANDSHAKE) {
            if (app.hasRemaining()) {
                throw new IOException("Delegation protocol violation: data before the handshake ended");
            }
            advance(ctx);
        } else if (app.hasRemaining()) {
            onApplicationData(ctx, app);
        }
    }

    /** Writes what the engine has to say and notices the end of the handshake. */
    private void advance(ChannelHandlerContext ctx) throws SSLException {
        boolean wrote = false;
        while (true) {
            HandshakeStatus hs = engine.getHandshakeStatus();
            if (hs == HandshakeStatus.NEED_TASK) {
                runTasks();
            } else if (hs == HandshakeStatus.NEED_WRAP) {
                wrap(ctx, ByteBuffer.allocate(0));
                wrote = true;
            } else {
                break;
            }
        }
        if (wrote) {
            ctx.flush();
        }
        if (state == State.HANDSHAKE && engine.getHandshakeStatus() == HandshakeStatus.NOT_HANDSHAKING) {
            handshakeFinished(ctx);
        }
    }

    private void handshakeFinished(ChannelHandlerContext ctx) throws SSLException {
        boolean tls13 = "TLSv1.3".equals(engine.getSession().getProtocol());
        if (initiator) {
            if (tls13) {
                state = State.AWAIT_BYTE; // we sent the last flight; the acceptor answers with 0x00
            } else {
                sendFlag(ctx);
            }
        } else {
            if (tls13) {
                wrap(ctx, ByteBuffer.wrap(new byte[] {0})); // the initiator spoke last: keep the exchange going
                ctx.flush();
            }
            state = State.AWAIT_FLAG;
        }
    }

    private void onApplicationData(ChannelHandlerContext ctx, ByteBuffer data) throws SSLException, IOException {
        if (data.remaining() != 1) {
            throw new IOException("Delegation protocol violation: expected one byte, got " + data.remaining());
        }
        byte b = data.get();
        if (state == State.AWAIT_BYTE) {
            sendFlag(ctx);
        } else if (state == State.AWAIT_FLAG) {
            if (b == FLAG_DELEGATE) {
                throw new IOException("Delegation protocol violation: delegation on a data channel");
            }
            if (b != FLAG_NO_DELEGATION) {
                throw new IOException("Delegation protocol violation");
            }
            state = State.DONE;
        } else {
            throw new IOException("Delegation protocol violation: unexpected data");
        }
    }

    private void sendFlag(ChannelHandlerContext ctx) throws SSLException {
        wrap(ctx, ByteBuffer.wrap(new byte[] {FLAG_NO_DELEGATION}));
        ctx.flush();
        state = State.DONE;
    }

    private void wrap(ChannelHandlerContext ctx, ByteBuffer src) throws SSLException {
        do {
            ByteBuffer net = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
            SSLEngineResult r = engine.wrap(src, net);
            if (r.getStatus() != SSLEngineResult.Status.OK) {
                throw new SSLException("cannot write TLS during data channel authentication: " + r.getStatus());
            }
            net.flip();
            if (net.hasRemaining()) {
                ctx.write(Unpooled.wrappedBuffer(net));
            }
            runTasks();
        } while (src.hasRemaining());
    }

    private void runTasks() {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
            task.run();
        }
    }

    /** Authenticated: release held writes, start the transfer handlers, hand on clear bytes, leave. */
    private void finish(ChannelHandlerContext ctx) {
        ByteBuf rest = received.readableBytes() > 0 ? received.readRetainedSlice(received.readableBytes()) : null;
        if (activeDeferred) {
            ctx.fireChannelActive(); // a sender starts now; its writes pass straight through (DONE)
        }
        ChannelFuture written = pending.removeAndWriteAll();
        ctx.flush();
        if (rest != null) {
            ctx.fireChannelRead(rest); // the peer's first clear bytes
            ctx.fireChannelReadComplete();
        }
        ChannelPromise close = deferredClose;
        deferredClose = null;
        if (close != null) {
            if (written == null) {
                ctx.close(close);
            } else {
                written.addListener(f -> ctx.close(close));
            }
        }
        ctx.pipeline().remove(this);
    }

    private void fail(ChannelHandlerContext ctx, Exception cause) {
        state = State.FAILED;
        IOException error = DataChannelAuthFailures.translate(ctx, cause);
        pending.removeAndFailAll(error);
        ctx.fireExceptionCaught(error);
        sendAlert(ctx);
        ChannelPromise close = deferredClose;
        deferredClose = null;
        ctx.close(close != null ? close : ctx.newPromise());
    }

    /** Lets the peer know why (the engine's fatal alert, e.g. certificate_unknown), best effort. */
    private void sendAlert(ChannelHandlerContext ctx) {
        try {
            engine.closeOutbound();
            while (!engine.isOutboundDone()) {
                ByteBuffer net = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
                SSLEngineResult r = engine.wrap(ByteBuffer.allocate(0), net);
                net.flip();
                if (!net.hasRemaining()) {
                    break;
                }
                ctx.write(Unpooled.wrappedBuffer(net));
                if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
                    break;
                }
            }
            ctx.flush();
        } catch (SSLException | RuntimeException e) {
            // the connection closes anyway; the local error has been reported
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (state != State.DONE && state != State.FAILED) {
            fail(ctx, new IOException("connection closed during the GSI handshake"));
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (state == State.FAILED) {
            return;
        }
        if (cause instanceof Exception e) {
            fail(ctx, e);
        } else {
            ctx.fireExceptionCaught(cause);
        }
    }
}
