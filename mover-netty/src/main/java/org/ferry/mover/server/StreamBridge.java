package org.ferry.mover.server;

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
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import org.ferry.mover.server.pi.CommandContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Joins a control channel pipeline to a pair of byte streams (a process's standard input and
 * output, connected by sshd or inetd to the client): the pipeline runs on a Netty in-JVM channel
 * on an event loop of its own (Netty's local transport; the socket loops do not take in-JVM
 * channels, and the session's data channels then live on the server's loops), a daemon thread copies the input stream into it, another writes
 * what the pipeline sends to the output stream (so a slow reader never blocks an event loop). The
 * session ends when the input ends or the pipeline closes; then the output is flushed and closed.
 */
final class StreamBridge {

    private static final Logger LOG = LoggerFactory.getLogger(StreamBridge.class);

    private StreamBridge() {}

    /** @return one event loop for in-JVM channels */
    static EventLoopGroup newGroup() {
        return new MultiThreadIoEventLoopGroup(1, LocalIoHandler.newFactory());
    }

    /**
     * @param group an event loop group of Netty's local transport ({@link #newGroup})
     * @param in bytes from the client
     * @param out bytes to the client
     * @param local this end's address as the client reached it
     * @param peer the client's address
     * @param pipeline installs the control channel handlers
     * @return a channel that closes when the session has ended and its last reply was written and its last reply was written
     * @throws IOException if the in-JVM channels cannot be set up
     */
    static Channel open(
            EventLoopGroup group,
            InputStream in,
            OutputStream out,
            InetSocketAddress local,
            InetSocketAddress peer,
            Consumer<Channel> pipeline)
            throws IOException {
        LocalAddress address = new LocalAddress("ferry-gridftp-stdio-" + UUID.randomUUID());
        ExecutorService writer = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "ferry-gridftp-stdout");
            thread.setDaemon(true);
            return thread;
        });
        Channel server;
        Channel client;
        try {
            server = new ServerBootstrap()
                    .group(group)
                    .channel(LocalServerChannel.class)
                    .childAttr(CommandContext.STANDING_LOCAL_ADDRESS, local)
                    .childAttr(CommandContext.STANDING_PEER_ADDRESS, peer)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            pipeline.accept(ch);
                        }
                    })
                    .bind(address)
                    .syncUninterruptibly()
                    .channel();
            client = new Bootstrap()
                    .group(group)
                    .channel(LocalChannel.class)
                    .handler(new ToOutput(out, writer))
                    .connect(address)
                    .syncUninterruptibly()
                    .channel();
        } catch (RuntimeException e) {
            writer.shutdownNow();
            throw new IOException("cannot bridge the control channel to standard input and output: " + e, e);
        }
        Channel serverChannel = server;
        client.closeFuture().addListener(f -> {
            // after every reply queued before it: the last one (221) reaches the client first
            writer.execute(() -> {
                try {
                    out.close();
                } catch (IOException e) {
                    // the client went away
                }
                serverChannel.close();
            });
            writer.shutdown();
        });
        Thread reader = new Thread(() -> copyInput(in, client), "ferry-gridftp-stdin");
        reader.setDaemon(true);
        reader.start();
        return server;
    }

    /** Copies the input stream into the channel until it ends, then closes the channel. */
    private static void copyInput(InputStream in, Channel client) {
        byte[] buffer = new byte[16 * 1024];
        try {
            int n;
            while ((n = in.read(buffer)) >= 0 && client.isActive()) {
                if (n > 0) {
                    client.writeAndFlush(Unpooled.wrappedBuffer(Arrays.copyOf(buffer, n)));
                }
            }
        } catch (IOException e) {
            LOG.debug("control channel input ended: {}", e.toString());
        } finally {
            client.close();
        }
    }

    /** Hands what the pipeline sends to the writer thread, in order. */
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
