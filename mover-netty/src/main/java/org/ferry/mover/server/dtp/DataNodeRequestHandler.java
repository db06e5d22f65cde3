package org.ferry.mover.server.dtp;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.ferry.mover.data.PassiveListener;
import org.ferry.mover.protocol.RangeTracker;
import org.ferry.mover.stripe.LinkMessage;
import org.ferry.mover.stripe.StripeLayout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the head's requests on one authenticated link connection by running them on the data
 * node's {@link LocalDtp}: listeners, stripe receives and sends, aborts. Reports
 * {@link LinkMessage.Progress} every {@link #PROGRESS_MILLIS} ms while a transfer runs, then
 * {@link LinkMessage.Done} or {@link LinkMessage.Failed}. When the link closes, every listener
 * and transfer it opened is closed or aborted. One instance per link connection.
 */
final class DataNodeRequestHandler extends SimpleChannelInboundHandler<LinkMessage> {

    /** Period of progress reports to the head, in milliseconds. */
    static final long PROGRESS_MILLIS = 1000;

    private static final Logger LOG = LoggerFactory.getLogger(DataNodeRequestHandler.class);

    private final LocalDtp dtp;
    private final InetAddress bindAddress;
    private final Map<Long, PassiveListener> listeners = new ConcurrentHashMap<>();
    private final Map<Long, CompletableFuture<Long>> transfers = new ConcurrentHashMap<>();

    DataNodeRequestHandler(LocalDtp dtp, InetAddress bindAddress) {
        this.dtp = dtp;
        this.bindAddress = bindAddress;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, LinkMessage msg) {
        if (msg instanceof LinkMessage.Listen m) {
            listen(ctx, m);
        } else if (msg instanceof LinkMessage.CloseListener m) {
            PassiveListener listener = listeners.remove(m.id());
            if (listener != null) {
                listener.close();
            }
        } else if (msg instanceof LinkMessage.Receive m) {
            PassiveListener listener = listeners.get(m.listenerId());
            if (listener == null) {
                ctx.writeAndFlush(
                        new LinkMessage.Failed(m.id(), 425, "no listener " + m.listenerId() + " on this data node"));
                return;
            }
            Reporter reporter = new Reporter(ctx, m.id());
            track(
                    ctx,
                    m.id(),
                    "receive " + m.path(),
                    reporter,
                    dtp.receive(new StripeReceiveRequest(listener, m.path(), m.baseOffset()), reporter));
        } else if (msg instanceof LinkMessage.Send m) {
            StripeSendRequest request;
            try {
                request = new StripeSendRequest(
                        m.path(),
                        m.offset(),
                        m.length(),
                        new StripeLayout(m.blockSizeBytes(), m.stripeCount()),
                        m.stripeIndex(),
                        new InetSocketAddress(InetAddress.getByName(m.host()), m.port()),
                        m.parallelism(),
                        m.eofCount());
            } catch (IOException | IllegalArgumentException e) {
                ctx.writeAndFlush(new LinkMessage.Failed(m.id(), 501, "bad send request: " + e.getMessage()));
                return;
            }
            Reporter reporter = new Reporter(ctx, m.id());
            track(
                    ctx,
                    m.id(),
                    "send stripe " + m.stripeIndex() + "/" + m.stripeCount() + " of " + m.path() + " to " + m.host()
                            + ":" + m.port(),
                    reporter,
                    dtp.send(request, reporter));
        } else if (msg instanceof LinkMessage.Abort m) {
            CompletableFuture<Long> transfer = transfers.get(m.id());
            if (transfer != null) {
                transfer.cancel(true);
            }
        } else {
            LOG.warn(
                    "unexpected {} from head {}",
                    msg.getClass().getSimpleName(),
                    ctx.channel().remoteAddress());
        }
    }

    private void listen(ChannelHandlerContext ctx, LinkMessage.Listen m) {
        try {
            PassiveListener listener = dtp.listen(bindAddress, null).join();
            listeners.put(m.id(), listener);
            InetSocketAddress address = listener.address();
            ctx.writeAndFlush(
                    new LinkMessage.Listening(m.id(), address.getAddress().getHostAddress(), address.getPort()));
        } catch (IOException | RuntimeException e) {
            ctx.writeAndFlush(
                    new LinkMessage.Failed(m.id(), 425, "Can't open passive data listener: " + e.getMessage()));
        }
    }

    private void track(
            ChannelHandlerContext ctx, long id, String what, Reporter reporter, CompletableFuture<Long> transfer) {
        transfers.put(id, transfer);
        ScheduledFuture<?> timer = ctx.executor()
                .scheduleAtFixedRate(reporter::report, PROGRESS_MILLIS, PROGRESS_MILLIS, TimeUnit.MILLISECONDS);
        transfer.whenComplete((bytes, error) -> {
            timer.cancel(false);
            transfers.remove(id);
            reporter.report(); // the last ranges go out before Done, so the head's 111 markers are complete
            if (error == null) {
                LOG.info("{}: {} bytes; {} bytes through this data node so far", what, bytes, dtp.bytesTransferred());
                ctx.writeAndFlush(new LinkMessage.Done(id, bytes));
            } else {
                DtpException failure = error instanceof CancellationException
                        ? new DtpException(426, "Command Aborted.")
                        : DtpException.of(error);
                LOG.info("{}: failed: {} {}", what, failure.replyCode(), failure.getMessage());
                ctx.writeAndFlush(new LinkMessage.Failed(id, failure.replyCode(), failure.getMessage()));
            }
        });
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        // the head is gone: nobody is left to finish or report these
        transfers.values().forEach(t -> t.cancel(true));
        listeners.values().forEach(PassiveListener::close);
        listeners.clear();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.warn("link to head {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }

    /** Collects one transfer's progress and sends it to the head when asked. */
    private static final class Reporter implements TransferProgress {
        private final ChannelHandlerContext ctx;
        private final long id;
        private final AtomicLong bytes = new AtomicLong();
        private final RangeTracker ranges = new RangeTracker();
        private long reported = -1;

        Reporter(ChannelHandlerContext ctx, long id) {
            this.ctx = ctx;
            this.id = id;
        }

        @Override
        public void accept(long total) {
            bytes.accumulateAndGet(total, Math::max);
        }

        @Override
        public void received(long from, long to) {
            ranges.add(from, to);
        }

        synchronized void report() {
            long now = bytes.get();
            String drained = ranges.drain();
            if (now != reported || drained != null) {
                reported = now;
                ctx.writeAndFlush(new LinkMessage.Progress(id, now, drained == null ? "" : drained));
            }
        }
    }
}
