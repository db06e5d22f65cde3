package org.ferry.mover.server.dtp;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.ferry.mover.data.PassiveListener;
import org.ferry.mover.net.Transport;
import org.ferry.mover.stripe.LinkAnswerHandler;
import org.ferry.mover.stripe.LinkAuth;
import org.ferry.mover.stripe.LinkFraming;
import org.ferry.mover.stripe.LinkMessage;

/**
 * A DTP on a data node, driven over the internal link ({@link LinkMessage}; SC'05 paper, Figure 1
 * "Internal IPC API"). One link connection per data node, shared by all sessions of the head and
 * multiplexed by request id; it is opened on first use and reopened after it broke. Thread-safe.
 */
public final class RemoteDtp implements DataTransferProcess {

    /** How long connecting and authenticating to a data node may take, in seconds. */
    public static final int CONNECT_TIMEOUT_SECONDS = 10;

    private final InetSocketAddress node;
    private final LinkAuth auth;
    private final EventLoopGroup group;
    private final AtomicLong ids = new AtomicLong();
    private final AtomicLong bytesTransferred = new AtomicLong();
    private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
    private Channel link; // guarded by this

    /** A request waiting for its answer on one link connection. */
    private record Pending(CompletableFuture<Object> future, TransferProgress progress, Channel link) {}

    /**
     * @param node the data node's link address ({@code ferry-gridftp data-node --port})
     * @param auth the shared secret
     * @param group event loops for the link connection (NIO or epoll, see {@link org.ferry.mover.net.Transport}); not closed here
     */
    public RemoteDtp(InetSocketAddress node, LinkAuth auth, EventLoopGroup group) {
        this.node = node;
        this.auth = auth;
        this.group = group;
    }

    @Override
    public String name() {
        return node.getAddress().getHostAddress() + ":" + node.getPort();
    }

    /**
     * Opens a listener on the data node (one stripe of SPAS, or a head node's PASV in MODE E), on
     * the data node's own address and with its own settings.
     *
     * @param session must be null: a session's plain data channels are the head's own
     */
    @Override
    public CompletableFuture<PassiveListener> listen(InetAddress announce, SessionChannels session) {
        if (session != null) {
            return CompletableFuture.failedFuture(new DtpException(
                    425, "Can't open passive data listener: data node " + name() + " listens for stripes only."));
        }
        long id = ids.incrementAndGet();
        return request(id, new LinkMessage.Listen(id), null).thenApply(reply -> {
            LinkMessage.Listening listening = (LinkMessage.Listening) reply;
            return new RemoteListener(id, new InetSocketAddress(listening.host(), listening.port()));
        });
    }

    /**
     * Runs a stripe on the data node; a plain transfer, whose bytes are in the head's process, fails
     * with 451.
     */
    @Override
    public CompletableFuture<Long> receive(ReceiveRequest request, TransferProgress progress) {
        if (!(request instanceof StripeReceiveRequest stripe)) {
            return notStriped();
        }
        if (!(stripe.listener() instanceof RemoteListener remote) || remote.owner() != this) {
            return CompletableFuture.failedFuture(new DtpException(451, "listener is not on data node " + name()));
        }
        long id = ids.incrementAndGet();
        return transfer(id, new LinkMessage.Receive(id, remote.id, stripe.path(), stripe.baseOffset()), progress);
    }

    /**
     * Runs a stripe on the data node; a plain transfer, whose bytes are in the head's process, fails
     * with 451.
     */
    @Override
    public CompletableFuture<Long> send(SendRequest request, TransferProgress progress) {
        if (!(request instanceof StripeSendRequest r)) {
            return notStriped();
        }
        long id = ids.incrementAndGet();
        InetSocketAddress target = r.target();
        return transfer(
                id,
                new LinkMessage.Send(
                        id,
                        r.path(),
                        r.offset(),
                        r.length(),
                        r.layout().blockSizeBytes(),
                        r.stripeIndex(),
                        r.layout().stripeCount(),
                        target.getAddress().getHostAddress(),
                        target.getPort(),
                        r.parallelism(),
                        r.eofCount()),
                progress);
    }

    private CompletableFuture<Long> notStriped() {
        return CompletableFuture.failedFuture(new DtpException(
                451, "Local error in processing: data node " + name() + " runs striped transfers only."));
    }

    private CompletableFuture<Long> transfer(long id, LinkMessage message, TransferProgress progress) {
        CompletableFuture<Long> result = request(id, message, progress).thenApply(reply -> {
            long bytes = ((LinkMessage.Done) reply).bytes();
            bytesTransferred.addAndGet(bytes);
            return bytes;
        });
        result.whenComplete((bytes, error) -> {
            if (result.isCancelled()) {
                pending.remove(id);
                writeQuietly(new LinkMessage.Abort(id)); // ABOR reaches the data node
            }
        });
        return result;
    }

    private CompletableFuture<Object> request(long id, LinkMessage message, TransferProgress progress) {
        CompletableFuture<Object> future = new CompletableFuture<>();
        Channel channel;
        try {
            channel = link();
        } catch (IOException e) {
            future.completeExceptionally(
                    new DtpException(425, "data node " + name() + " unreachable: " + e.getMessage()));
            return future;
        }
        pending.put(id, new Pending(future, progress, channel));
        channel.writeAndFlush(message).addListener(f -> {
            if (!f.isSuccess()) {
                fail(
                        id,
                        new DtpException(
                                426, "Connection to data node " + name() + " lost; transfer aborted: " + f.cause()));
            }
        });
        return future;
    }

    private synchronized Channel link() throws IOException {
        if (link != null && link.isActive()) {
            return link;
        }
        LinkAnswerHandler answer = new LinkAnswerHandler(auth);
        ChannelFuture connect = new Bootstrap()
                .group(group)
                .channel(Transport.of(group).socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_SECONDS * 1000)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        LinkFraming.install(ch.pipeline());
                        ch.pipeline().addLast("linkAnswer", answer).addLast("linkReplies", new ReplyHandler());
                    }
                })
                .connect(node);
        try {
            answer.ready().get(CONNECT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            connect.channel().close();
            throw new IOException("interrupted while connecting to data node " + name(), e);
        } catch (ExecutionException | TimeoutException e) {
            connect.channel().close();
            Throwable cause = connect.cause() != null ? connect.cause() : e.getCause() != null ? e.getCause() : e;
            throw new IOException(cause.getMessage(), cause);
        }
        link = connect.channel();
        return link;
    }

    private void writeQuietly(LinkMessage message) {
        Channel channel;
        synchronized (this) {
            channel = link;
        }
        if (channel != null && channel.isActive()) {
            channel.writeAndFlush(message);
        }
    }

    private void fail(long id, Throwable cause) {
        Pending p = pending.remove(id);
        if (p != null) {
            p.future.completeExceptionally(cause);
        }
    }

    @Override
    public long bytesTransferred() {
        return bytesTransferred.get();
    }

    @Override
    public void close() {
        Channel channel;
        synchronized (this) {
            channel = link;
            link = null;
        }
        if (channel != null) {
            channel.close();
        }
        pending.keySet().forEach(id -> fail(id, new CancellationException("head node closed")));
    }

    @Override
    public String toString() {
        return "RemoteDtp[" + name() + "]";
    }

    /** Hands the data node's answers to the waiting requests. */
    private final class ReplyHandler extends SimpleChannelInboundHandler<LinkMessage> {

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, LinkMessage msg) {
            if (msg instanceof LinkMessage.Listening m) {
                complete(m.id(), m);
            } else if (msg instanceof LinkMessage.Done m) {
                complete(m.id(), m);
            } else if (msg instanceof LinkMessage.Progress m) {
                Pending p = pending.get(m.id());
                if (p != null && p.progress != null) {
                    report(p.progress, m);
                }
            } else if (msg instanceof LinkMessage.Failed m) {
                fail(m.id(), new DtpException(m.replyCode(), m.message()));
            }
        }

        /** Hands a progress report on: its ranges come as {@code a-b,c-d} (end exclusive). */
        private static void report(TransferProgress progress, LinkMessage.Progress m) {
            progress.accept(m.bytes());
            if (!m.ranges().isEmpty()) {
                for (String range : m.ranges().split(",")) {
                    int dash = range.indexOf('-');
                    progress.received(
                            Long.parseLong(range.substring(0, dash)), Long.parseLong(range.substring(dash + 1)));
                }
            }
        }

        private void complete(long id, LinkMessage msg) {
            Pending p = pending.remove(id);
            if (p != null) {
                p.future.complete(msg);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            // every request on this link is lost with it (not those on a newer one); the next
            // request opens a new link
            pending.forEach((id, p) -> {
                if (p.link == ctx.channel()) {
                    fail(id, new DtpException(426, "Connection to data node " + name() + " lost; transfer aborted."));
                }
            });
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    /** A passive listener on the data node; closing it tells the data node to close it. */
    private final class RemoteListener implements PassiveListener {
        private final long id;
        private final InetSocketAddress address;
        private final AtomicBoolean closed = new AtomicBoolean();

        RemoteListener(long id, InetSocketAddress address) {
            this.id = id;
            this.address = address;
        }

        RemoteDtp owner() {
            return RemoteDtp.this;
        }

        @Override
        public InetSocketAddress address() {
            return address;
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                writeQuietly(new LinkMessage.CloseListener(id));
            }
        }
    }
}
