package org.ferry.mover.data;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;

/**
 * Base of the data senders (stream mode, MODE E, and a data node's stripes): starts writing once
 * the connection is active (or at once when added to an active one) and writes more whenever the
 * channel becomes writable again, so a sender never buffers more than the channel's write
 * watermark allows (backpressure, Netty's writability). It counts the writes the socket has not
 * taken yet ({@link #inFlight}), counts each one's bytes into the transfer when the socket took it,
 * and fails the transfer when a write fails, the connection breaks, or the peer closes it before
 * the sender {@linkplain #markEnded ended}. Receivers send nothing on data connections: what
 * arrives is dropped. All methods run on the channel's event loop.
 */
public abstract class WritabilityPump extends ChannelInboundHandlerAdapter {

    /** The transfer a sender's connection belongs to, as the sender sees it. Thread-safe. */
    public interface Progress {
        /** @param bytes payload bytes the socket took */
        void addBytes(long bytes);

        /** @param cause why the transfer failed; the first outcome wins */
        void fail(Throwable cause);

        /** @return true once the transfer succeeded or failed */
        boolean isDone();
    }

    private Progress progress;
    private final String connectionName;
    private boolean started;
    private boolean ended;
    private int inFlight;

    /**
     * @param progress the transfer this connection belongs to
     * @param connectionName what to call the connection in errors, e.g. {@code "MODE E data connection"}
     */
    protected WritabilityPump(Progress progress, String connectionName) {
        this.progress = progress;
        this.connectionName = connectionName;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive()) {
            start(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        start(ctx);
        ctx.fireChannelActive();
    }

    private void start(ChannelHandlerContext ctx) {
        if (!started) {
            started = true;
            pump(ctx);
        }
    }

    /**
     * Serves another transfer on this connection, which a sender that ended kept open (a cached
     * MODE E connection, GFD.020 "Extended Block Mode", data connection reuse): fresh state, and
     * writing starts at once if the connection is active. Between transfers an ended sender stays
     * in the pipeline and guards the idle connection: it drops what arrives and closes on an error.
     * Call on the channel's event loop, after {@link #isEnded}.
     *
     * @param ctx this handler's context
     * @param next the transfer it now serves
     */
    protected final void restart(ChannelHandlerContext ctx, Progress next) {
        progress = next;
        started = false;
        ended = false;
        inFlight = 0;
        if (ctx.channel().isActive()) {
            start(ctx);
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (started && ctx.channel().isWritable()) {
            pump(ctx);
        }
        ctx.fireChannelWritabilityChanged();
    }

    /** Writes while {@link #canWrite} and there is something to send; ends when all is written. */
    protected abstract void pump(ChannelHandlerContext ctx);

    /**
     * @param maxInFlight how many writes may wait for the socket
     * @return true while the sender has not ended, the transfer runs, fewer than
     *     {@code maxInFlight} writes wait and the channel is writable
     */
    protected final boolean canWrite(ChannelHandlerContext ctx, int maxInFlight) {
        return !ended
                && !progress.isDone()
                && inFlight < maxInFlight
                && ctx.channel().isWritable();
    }

    /** @return writes handed to the channel whose bytes the socket has not taken yet */
    protected final int inFlight() {
        return inFlight;
    }

    /**
     * Writes and flushes {@code message}, one more write in flight: once the socket took it its
     * {@code bytes} count into the transfer and the pump runs again; a failed write fails the
     * transfer.
     *
     * @param message what to write (a payload, after its header if any)
     * @param bytes the payload bytes it carries
     */
    protected final void writeCounted(ChannelHandlerContext ctx, Object message, int bytes) {
        writeCounted(ctx, message, bytes, false);
    }

    /**
     * Like {@link #writeCounted(ChannelHandlerContext, Object, int)}; with {@code ends} the message
     * also carries the sender's end, and once the socket took it the sender is {@linkplain
     * #markEnded ended} (before the pump runs again).
     *
     * @param ends true if the message ends this connection's share of the transfer
     */
    protected final void writeCounted(ChannelHandlerContext ctx, Object message, int bytes, boolean ends) {
        inFlight++;
        // Listen before writing: a nested flush may complete this write before addListener returns,
        // and its bytes must be counted before the end's listener ends the transfer.
        ChannelPromise written = ctx.newPromise();
        written.addListener(new Written(ctx, bytes, ends));
        ctx.writeAndFlush(message, written);
    }

    /**
     * One write's end: counts its bytes and pumps on, or fails the transfer. A class rather than a
     * lambda: one is made per block, and the C1-only JIT allocates a capturing lambda through a
     * method handle (a runtime call).
     */
    private final class Written implements ChannelFutureListener {
        private final ChannelHandlerContext ctx;
        private final int bytes;
        private final boolean ends;

        Written(ChannelHandlerContext ctx, int bytes, boolean ends) {
            this.ctx = ctx;
            this.bytes = bytes;
            this.ends = ends;
        }

        @Override
        public void operationComplete(ChannelFuture f) {
            inFlight--;
            if (f.isSuccess()) {
                progress.addBytes(bytes);
                if (ends) {
                    markEnded();
                }
                pump(ctx);
            } else {
                progress.fail(f.cause());
            }
        }
    }

    /** From now on the connection may close without failing the transfer (the end was written). */
    protected final void markEnded() {
        ended = true;
    }

    /** @return true once {@link #markEnded} was called */
    protected final boolean isEnded() {
        return ended;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (!ended) {
            progress.fail(new IOException(connectionName + " to "
                    + ctx.channel().remoteAddress() + " closed by the peer during the transfer"));
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        progress.fail(cause);
        ctx.close();
    }
}
