package org.ferry.mover.client;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import java.io.EOFException;
import java.io.IOException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The last handler of a control channel: queues decoded replies for the blocking session thread,
 * and turns a closed connection or a pipeline failure into an IOException for that thread.
 */
final class ReplyQueue extends ChannelInboundHandlerAdapter {

    private final BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private volatile Wakeup wakeup; // also told of each arrival while a multi-source wait runs
    private volatile boolean finalsOnly;

    /**
     * @param value told of every later arrival (reply, close, failure); null for none
     * @param onlyFinals true to tell it only of final (non-1xx) replies, closes and failures: a
     *     waiter that acts on nothing else is not woken for each 150 and marker (they stay queued)
     */
    void wakeup(Wakeup value, boolean onlyFinals) {
        finalsOnly = onlyFinals;
        wakeup = value;
        if (value != null && !queue.isEmpty()) {
            value.signal(); // what arrived before is new to this waiter
        }
    }

    private void add(Object item, boolean preliminary) {
        queue.add(item);
        Wakeup current = wakeup;
        if (current != null && !(preliminary && finalsOnly)) {
            current.signal();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof FtpReply reply) {
            add(reply, reply.isPreliminary());
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        add(new EOFException("control connection closed by " + ctx.channel().remoteAddress()), false);
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        add(new IOException("control connection failed: " + cause.getMessage(), cause), false);
        ctx.close();
    }

    /**
     * @param timeoutMillis how long to wait
     * @return the next reply, or null if none arrived in time
     * @throws IOException if the connection closed or failed (repeatable: the error stays queued)
     */
    FtpReply poll(long timeoutMillis) throws IOException {
        Object next;
        try {
            next = queue.poll(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted waiting for a reply");
        }
        if (next instanceof IOException error) {
            queue.add(error);
            // a fresh exception, so the stack shows the command that was waiting, not the I/O thread
            throw new IOException(error.getMessage(), error);
        }
        return (FtpReply) next;
    }
}
