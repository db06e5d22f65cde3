package org.ferry.mover.client;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LineBasedFrameDecoder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.ferry.mover.net.StreamBridge;
import org.ferry.mover.net.Transport;
import org.ferry.mover.protocol.FtpCommandEncoder;
import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.protocol.FtpReplyDecoder;

/**
 * A client control connection (RFC 959): sends command lines and hands replies to one blocking
 * caller. Pipeline: line splitter, {@link FtpReplyDecoder}, {@link FtpCommandEncoder},
 * {@link ReplyQueue}. Not thread-safe: one session thread drives it.
 */
final class ControlChannel implements AutoCloseable {

    /** Longest reply line accepted (MLST lines with long paths fit easily). */
    private static final int MAX_LINE_BYTES = 64 * 1024;

    private final Channel channel;
    private final ReplyQueue replies;
    private final Duration replyTimeout;
    /** Addresses of a control channel that is not a socket (sshftp), else null: the socket's. */
    private final InetSocketAddress local;

    private final InetSocketAddress remote;

    private ControlChannel(
            Channel channel,
            ReplyQueue replies,
            Duration replyTimeout,
            InetSocketAddress local,
            InetSocketAddress remote) {
        this.channel = channel;
        this.replies = replies;
        this.replyTimeout = replyTimeout;
        this.local = local;
        this.remote = remote;
    }

    /**
     * Connects to a control port.
     *
     * @throws IOException if the connection cannot be made within the reply timeout
     */
    static ControlChannel connect(EventLoopGroup group, String host, int port, Duration replyTimeout)
            throws IOException {
        ReplyQueue replies = new ReplyQueue();
        ChannelFuture connect = new Bootstrap()
                .group(group)
                .channel(Transport.of(group).socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int)
                        Math.min(Integer.MAX_VALUE, replyTimeout.toMillis()))
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline()
                                .addLast(
                                        new LineBasedFrameDecoder(MAX_LINE_BYTES),
                                        new FtpReplyDecoder(),
                                        new FtpCommandEncoder(),
                                        replies);
                    }
                })
                .connect(host, port)
                .awaitUninterruptibly();
        if (!connect.isSuccess()) {
            throw new IOException(
                    "cannot connect to " + host + ":" + port + ": "
                            + connect.cause().getMessage(),
                    connect.cause());
        }
        return new ControlChannel(connect.channel(), replies, replyTimeout, null, null);
    }

    /**
     * A control channel over an SSH exec channel's streams (sshftp): the same pipeline on an in-JVM
     * channel ({@link StreamBridge}); closing it closes the SSH channel and session too.
     *
     * @param localGroup an event loop group of Netty's local transport
     * @param exec the running remote command
     * @param replyTimeout the reply timeout
     * @return the control channel
     * @throws IOException if the bridge cannot be set up
     */
    static ControlChannel overSsh(EventLoopGroup localGroup, SshConnector.Exec exec, Duration replyTimeout)
            throws IOException {
        ReplyQueue replies = new ReplyQueue();
        StreamBridge bridge = StreamBridge.open(
                localGroup,
                exec.fromServer(),
                exec.toServer(),
                Map.of(),
                ch -> ch.pipeline()
                        .addLast(
                                new LineBasedFrameDecoder(MAX_LINE_BYTES),
                                new FtpReplyDecoder(),
                                new FtpCommandEncoder(),
                                replies));
        bridge.channel().closeFuture().addListener(f -> exec.close());
        return new ControlChannel(bridge.channel(), replies, replyTimeout, exec.localAddress(), exec.remoteAddress());
    }

    /** @return the reply timeout this channel applies */
    Duration replyTimeout() {
        return replyTimeout;
    }

    /** @return whether the connection is still open (false once either side closed it or it failed) */
    boolean isActive() {
        return channel.isActive();
    }

    /** @return our end of the connection: the address a server can reach us at (for PORT) */
    InetSocketAddress localAddress() {
        return local != null ? local : (InetSocketAddress) channel.localAddress();
    }

    /** @return the server's end of the connection */
    InetSocketAddress remoteAddress() {
        return remote != null ? remote : (InetSocketAddress) channel.remoteAddress();
    }

    /** Sends one command line; a write failure shows up as an IOException on the next read. */
    void send(String command) {
        channel.writeAndFlush(command).addListener(f -> {
            if (!f.isSuccess()) {
                channel.pipeline().fireExceptionCaught(f.cause());
            }
        });
    }

    /**
     * Queues one command line without sending it yet: several go out with one {@link #flush()}
     * (one write on the socket for a pipelined run of commands). A failure shows up as in
     * {@link #send(String)}.
     */
    void write(String command) {
        channel.write(command).addListener(f -> {
            if (!f.isSuccess()) {
                channel.pipeline().fireExceptionCaught(f.cause());
            }
        });
    }

    /** Sends the lines {@link #write(String)} queued. */
    void flush() {
        channel.flush();
    }

    /**
     * @return the next reply within {@code timeoutMillis}, or null
     * @throws IOException if the connection closed or failed
     */
    FtpReply poll(long timeoutMillis) throws IOException {
        return replies.poll(timeoutMillis);
    }

    /**
     * Has {@code wakeup} signalled on every reply (or failure) that arrives from now on, and at
     * once if one is already queued; null stops it.
     */
    void wakeup(Wakeup wakeup) {
        replies.wakeup(wakeup, reply -> true);
    }

    /**
     * Like {@link #wakeup(Wakeup)} for a waiter that acts only on some replies: {@code replies} runs
     * on the event loop with each reply as it arrives and says whether it wakes the waiter; a close
     * or failure always does.
     */
    void wakeup(Wakeup wakeup, Predicate<FtpReply> replies) {
        this.replies.wakeup(wakeup, replies);
    }

    /**
     * Reads replies until a final (non-1xx) one, passing preliminary ones to {@code preliminary}.
     *
     * @param what the command waited for, for the timeout message
     * @throws SocketTimeoutException if no reply arrives within the reply timeout
     * @throws IOException if the connection closed or failed
     */
    FtpReply readFinal(String what, Consumer<FtpReply> preliminary) throws IOException {
        while (true) {
            FtpReply reply = replies.poll(replyTimeout.toMillis());
            if (reply == null) {
                throw new SocketTimeoutException("no reply to " + what + " from " + remoteAddress() + " within "
                        + replyTimeout.toSeconds() + " s");
            }
            if (!reply.isPreliminary()) {
                return reply;
            }
            preliminary.accept(reply);
        }
    }

    /**
     * Protects every later command and reply with an established GSI context (after 235).
     * Runs on the event loop and waits, so no reply is read unprotected in between.
     */
    void protect(org.ferry.gsi.context.SecurityContext context) {
        channel.eventLoop()
                .submit(() -> channel.pipeline()
                        .addBefore(channel.pipeline().context(replies).name(), "gsi", new ClientGsiHandler(context)))
                .syncUninterruptibly();
    }

    /** Closes the connection without QUIT. */
    @Override
    public void close() {
        channel.close().awaitUninterruptibly();
    }
}
