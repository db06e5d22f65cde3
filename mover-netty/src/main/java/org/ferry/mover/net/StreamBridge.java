package org.ferry.mover.net;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.local.LocalAddress;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalIoHandler;
import io.netty.channel.local.LocalServerChannel;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Joins a Netty pipeline to a pair of byte streams: a process's standard input and output that
 * sshd or inetd connected to a client (the server side of sshftp), or an SSH exec channel's streams
 * (the client side). The pipeline runs on a Netty in-JVM channel on an event loop of Netty's local
 * transport ({@link #newGroup}; the socket loops do not take in-JVM channels, so data channels stay
 * on their own loops); a daemon thread copies the input stream into it, another writes what the
 * pipeline sends to the output stream (so a slow reader never blocks an event loop). The end of the
 * input reaches the pipeline as a socket's half-closure does ({@link ChannelInputShutdownEvent},
 * after every byte read before it): a handler that still has work for what it read (the server's
 * queued commands) consumes the event and closes the channel when done; otherwise the bridge's last
 * handler closes it at once. The bridge ends when the pipeline's channel closes; then the output is
 * flushed and closed.
 */
public final class StreamBridge {

    private static final Logger LOG = LoggerFactory.getLogger(StreamBridge.class);

    /** The name of the bridge's last handler, which closes the channel when the input ended. */
    private static final String CLOSE_ON_INPUT_SHUTDOWN = "closeOnInputShutdown";

    private final Channel channel;
    private final Channel done;

    private StreamBridge(Channel channel, Channel done) {
        this.channel = channel;
        this.done = done;
    }

    /** @return one event loop for in-JVM channels; the caller shuts it down */
    public static EventLoopGroup newGroup() {
        return new MultiThreadIoEventLoopGroup(1, LocalIoHandler.newFactory());
    }

    /** @return the channel the pipeline runs on: write to it, close it to end the bridge */
    public Channel channel() {
        return channel;
    }

    /** @return a channel that closes once the bridge has ended and the last bytes were written out */
    public Channel done() {
        return done;
    }

    /**
     * @param group an event loop group of Netty's local transport ({@link #newGroup})
     * @param in the bytes to hand to the pipeline
     * @param out where the bytes the pipeline writes go
     * @param attributes set on the pipeline's channel before its handlers run (addresses for logs)
     * @param pipeline installs the handlers
     * @return the bridge, its pipeline active
     * @throws IOException if the in-JVM channels cannot be set up
     */
    public static StreamBridge open(
            EventLoopGroup group,
            InputStream in,
            OutputStream out,
            Map<AttributeKey<InetSocketAddress>, InetSocketAddress> attributes,
            Consumer<Channel> pipeline)
            throws IOException {
        LocalAddress address = new LocalAddress("ferry-stream-bridge-" + UUID.randomUUID());
        ExecutorService writer = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "ferry-bridge-out");
            thread.setDaemon(true);
            return thread;
        });
        Channel pump;
        Channel channel;
        try {
            pump = new ServerBootstrap()
                    .group(group)
                    .channel(LocalServerChannel.class)
                    .childHandler(new ToOutput(out, writer))
                    .bind(address)
                    .syncUninterruptibly()
                    .channel();
            Bootstrap bootstrap = new Bootstrap().group(group).channel(LocalChannel.class);
            attributes.forEach((key, value) -> {
                if (value != null) {
                    bootstrap.attr(key, value);
                }
            });
            channel = bootstrap
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            pipeline.accept(ch);
                            ch.pipeline().addLast(CLOSE_ON_INPUT_SHUTDOWN, new CloseOnInputShutdown());
                        }
                    })
                    .connect(address)
                    .syncUninterruptibly()
                    .channel();
        } catch (RuntimeException e) {
            writer.shutdownNow();
            throw new IOException("cannot bridge a pipeline to streams: " + e, e);
        }
        Channel server = pump;
        channel.closeFuture().addListener(f -> {
            // after every write queued before it: the last reply reaches the peer first
            writer.execute(() -> {
                try {
                    out.close();
                } catch (IOException e) {
                    // the peer went away
                }
                server.close();
            });
            writer.shutdown();
        });
        Thread reader = new Thread(() -> copyInput(in, channel), "ferry-bridge-in");
        reader.setDaemon(true);
        reader.start();
        return new StreamBridge(channel, server);
    }

    /**
     * Copies the input stream into the pipeline until it ends, then tells the pipeline that its
     * input is shut down (behind the last read: the loop runs its tasks in order).
     */
    private static void copyInput(InputStream in, Channel channel) {
        byte[] buffer = new byte[16 * 1024];
        try {
            int n;
            while ((n = in.read(buffer)) >= 0 && channel.isActive()) {
                if (n > 0) {
                    ByteBuf bytes = Unpooled.wrappedBuffer(Arrays.copyOf(buffer, n));
                    // a read and its end, as a socket's: handlers that hold flushes during a read
                    // (FlushConsolidationHandler) release them at the end
                    channel.eventLoop()
                            .execute(() ->
                                    channel.pipeline().fireChannelRead(bytes).fireChannelReadComplete());
                }
            }
        } catch (IOException e) {
            LOG.debug("bridged input ended: {}", e.toString());
        } finally {
            try {
                channel.eventLoop().execute(() -> {
                    if (channel.isActive()) {
                        channel.pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
                    }
                });
            } catch (RejectedExecutionException e) {
                // the loop stopped with the channel (the input was closed at the end): nobody to tell
            }
        }
    }

    /** Closes the channel on the end of the input when no handler before it took the end on itself. */
    private static final class CloseOnInputShutdown extends ChannelInboundHandlerAdapter {
        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
            if (evt instanceof ChannelInputShutdownEvent) {
                ctx.close();
            }
            super.userEventTriggered(ctx, evt);
        }
    }

    /** Hands what the pipeline writes to the writer thread, in order. */
    private static final class ToOutput extends ChannelInboundHandlerAdapter {
        private final OutputStream out;
        private final ExecutorService writer;

        ToOutput(OutputStream out, ExecutorService writer) {
            this.out = out;
            this.writer = writer;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            byte[] bytes;
            try {
                ByteBuf buf = (ByteBuf) msg;
                bytes = new byte[buf.readableBytes()];
                buf.readBytes(bytes);
            } finally {
                ReferenceCountUtil.release(msg);
            }
            Channel channel = ctx.channel();
            writer.execute(() -> {
                try {
                    out.write(bytes);
                    out.flush();
                } catch (IOException e) {
                    LOG.debug("control channel output failed: {}", e.toString());
                    channel.close();
                }
            });
        }
    }
}
