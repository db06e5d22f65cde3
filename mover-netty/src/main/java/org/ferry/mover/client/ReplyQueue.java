package org.ferry.mover.client;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import java.io.EOFException;
import java.io.IOException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.ferry.mover.protocol.FtpReply;

/**
 * The last handler of a control channel: queues decoded replies for the blocking session thread,
 * and turns a closed connection or a pipeline failure into an IOException for that thread.
 */
final class ReplyQueue extends ChannelInboundHandlerAdapter {

    private final BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private volatile Wakeup wakeup; // also told of arrivals while a multi-source wait runs
    private volatile Predicate<FtpReply> wakeFor = reply -> true;

    /**
     * @param value told of later arrivals (closes, failures, and the replies {@code replies} accepts);
     *     null for none
     * @param replies called on the event loop with each reply as it arrives; true wakes {@code value}.
     *     A waiter that acts only on some replies (a pipelined batch, every few completed steps) is
     *     then not woken for each 150, marker or 226; the others wait in the queue for its next look
     */
    void wakeup(Wakeup value, Predicate<FtpReply> replies) {
        wakeFor = replies;
        wakeup = value;
        if (value != null && !queue.isEmpty()) {
            value.signal(); // what arrived before is new to this waiter
        }
    }

    private void add(Object item, boolean wake) {
        queue.add(item);
        Wakeup current = wakeup;
        if (current != null && wake) {
            current.signal();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof FtpReply reply) {
            add(reply, wakeFor.test(reply));
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        add(new EOFException("control connection closed by " + ctx.channel().remoteAddress()), true);
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        add(new IOException("control connection failed: " + cause.getMessage(), cause), true);
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
