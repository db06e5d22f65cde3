package org.ferry.mover.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.handler.traffic.GlobalTrafficShapingHandler;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.ferry.mover.data.DataChannels;
import org.ferry.mover.net.BusyPoll;
import org.ferry.mover.net.Transport;
import org.ferry.mover.protocol.FtpCommandDecoder;
import org.ferry.mover.protocol.FtpReplyEncoder;
import org.ferry.mover.server.command.GsiCommands;
import org.ferry.mover.server.command.StandardCommands;
import org.ferry.mover.server.dtp.DtpFactory;
import org.ferry.mover.server.dtp.LocalDtp;
import org.ferry.mover.server.dtp.StripedDtp;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandRegistry;
import org.ferry.mover.server.pi.ControlChannelHandler;
import org.ferry.mover.server.pi.ControlSession;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.ferry.mover.server.pi.GsiServerSecurity;
import org.ferry.mover.storage.PosixStorage;
import org.ferry.mover.storage.StorageInterface;
import org.ferry.mover.stripe.StripeSends;

/**
 * A running GridFTP server (the Ferry counterpart of globus-gridftp-server) serving one root
 * directory over clear-text logins. Control channel pipeline per connection: idle timeout,
 * {@link FtpCommandDecoder} (CRLF lines, 4096-byte limit), {@link FtpReplyEncoder},
 * {@link ControlChannelHandler}. Commands run on a worker pool or on the event loops; data moves
 * through the data transfer processes: the server's own ({@link LocalDtp}, on the same event loops),
 * which runs every plain transfer, and for striped ones those {@link DtpFactory} makes (the same
 * one, or a head node's data nodes). Embeddable: start several in one JVM.
 *
 * <pre>
 * try (GridFtpServer server = GridFtpServer.start(GridFtpServerConfig.loopback(dir)
 *         .withAuthenticator((u, p) -&gt; u.equals("me") &amp;&amp; p.equals(secret)))) {
 *     int port = server.port();
 * }
 * </pre>
 */
public final class GridFtpServer implements AutoCloseable {

    /** Upper bound on each wait while shutting down, in seconds. */
    public static final int SHUTDOWN_WAIT_SECONDS = 5;

    /** Period over which a rate limit is measured; shorter keeps bursts small. */
    private static final long SHAPER_CHECK_MILLIS = 100;

    private final EventLoopGroup group;
    private final ExecutorService worker;
    private final DataChannels dataChannels;
    private final Channel serverChannel;
    private final StripedDtp stripedDtp;

    private GridFtpServer(
            EventLoopGroup group,
            ExecutorService worker,
            DataChannels dataChannels,
            Channel serverChannel,
            StripedDtp stripedDtp) {
        this.group = group;
        this.worker = worker;
        this.dataChannels = dataChannels;
        this.serverChannel = serverChannel;
        this.stripedDtp = stripedDtp;
    }

    /**
     * Binds the control channel and starts serving.
     *
     * @param config the settings
     * @return the running server
     * @throws IOException if the root is not a directory or the address cannot be bound
     */
    public static GridFtpServer start(GridFtpServerConfig config) throws IOException {
        return start(config, null, DtpFactory.local());
    }

    /**
     * Binds the control channel and starts serving, with SPAS/SPOR driving the DTPs that
     * {@code dtps} makes: the local one ({@link DtpFactory#local()}, what {@link #start(GridFtpServerConfig)}
     * uses) or the data nodes of a head node ({@link DtpFactory#dataNodes}; SC'05 paper section 5).
     *
     * @param config the settings
     * @param dtps makes the DTPs for striped transfers
     * @return the running server
     * @throws IOException if the root is not a directory or the address cannot be bound
     */
    public static GridFtpServer start(GridFtpServerConfig config, DtpFactory dtps) throws IOException {
        return start(config, null, dtps);
    }

    /**
     * Binds the control channel and starts serving, with {@code AUTH GSSAPI} (GSI) available when
     * {@code gsi} is given (RFC 2228 section 3 (AUTH, ADAT) with the GSI mechanism; the Globus grid-mapfile format); clear USER/PASS stays as configured.
     *
     * @param config the settings
     * @param gsi host credential, trust and grid-mapfile for GSI, or null for none
     * @return the running server
     * @throws IOException if the root is not a directory or the address cannot be bound
     */
    public static GridFtpServer start(GridFtpServerConfig config, GsiServerSecurity gsi) throws IOException {
        return start(config, gsi, DtpFactory.local());
    }

    /**
     * Binds the control channel and starts serving, with GSI if {@code gsi} is given and SPAS/SPOR
     * driving the DTPs {@code dtps} makes.
     *
     * @param config the settings
     * @param gsi host credential, trust and grid-mapfile for GSI, or null for none
     * @param dtps makes the DTPs for striped transfers ({@link DtpFactory#local()} or data nodes)
     * @return the running server
     * @throws IOException if the root is not a directory or the address cannot be bound
     */
    public static GridFtpServer start(GridFtpServerConfig config, GsiServerSecurity gsi, DtpFactory dtps)
            throws IOException {
        StorageInterface storage = new PosixStorage(config.root());
        Transport transport = Transport.preferred();
        BusyPoll busyPoll = new BusyPoll(config.busyPoll(), Runtime.getRuntime().availableProcessors());
        EventLoopGroup group = transport.newGroup(0, null, busyPoll.strategies());
        ExecutorService worker = Executors.newCachedThreadPool(daemonThreads("ferry-gridftp-pi"));
        DataChannels dataChannels = new DataChannels(group).rateLimited(shaper(group, config));
        LocalDtp local = new LocalDtp("local", dataChannels, new StripeSends(group), storage);
        StripedDtp stripedDtp = new StripedDtp(dtps.create(group, local));
        CommandRegistry registry =
                gsi == null ? StandardCommands.registry(stripedDtp) : GsiCommands.registry(stripedDtp);
        String banner = (config.bindAddress().isAnyLocalAddress()
                        ? ""
                        : config.bindAddress().getHostAddress() + " ") + "Ferry GridFTP Server 0.1 ready.";
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(group)
                .channel(transport.serverSocketChannel())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        busyPoll.track(ch);
                        ch.pipeline()
                                // replies come from the command worker or the loop, often several per
                                // file (markers, 226, a batch's replies): one write syscall for those
                                // that queue together; a download's 150/125 goes at once
                                // (CommandContext.replyPromptly, PreliminaryReplyTiming)
                                .addLast(
                                        CommandContext.FLUSH_CONSOLIDATION,
                                        new FlushConsolidationHandler(
                                                FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true))
                                .addLast(
                                        "idle",
                                        new IdleStateHandler(
                                                0, 0, config.idleTimeout().toMillis(), TimeUnit.MILLISECONDS))
                                .addLast("commandDecoder", new FtpCommandDecoder())
                                .addLast("replyEncoder", new FtpReplyEncoder())
                                .addLast(
                                        "session",
                                        new ControlChannelHandler(
                                                channel -> new CommandContext(
                                                        new ControlSession(gsi),
                                                        storage.forSession(),
                                                        local,
                                                        config,
                                                        registry,
                                                        channel),
                                                registry,
                                                worker,
                                                banner,
                                                busyPoll::expectCommand));
                    }
                });
        try {
            Channel channel = bootstrap
                    .bind(new InetSocketAddress(config.bindAddress(), config.port()))
                    .syncUninterruptibly()
                    .channel();
            return new GridFtpServer(group, worker, dataChannels, channel, stripedDtp);
        } catch (RuntimeException e) {
            stripedDtp.close();
            dataChannels.close();
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            worker.shutdownNow();
            throw new IOException(
                    "cannot bind " + config.bindAddress().getHostAddress() + ":" + config.port() + ": "
                            + e.getMessage(),
                    e);
        }
    }

    /** @return the bound control channel port (the ephemeral one when configured with 0) */
    public int port() {
        return address().getPort();
    }

    /** @return the bound control channel address */
    public InetSocketAddress address() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /**
     * One shaper for all data connections when the configuration caps the data rate; its counter
     * runs on the server's event loops and stops with them.
     */
    private static GlobalTrafficShapingHandler shaper(EventLoopGroup group, GridFtpServerConfig config) {
        long limit = config.dataRateLimitBytesPerSecond();
        return limit == 0 ? null : new GlobalTrafficShapingHandler(group, limit, limit, SHAPER_CHECK_MILLIS);
    }

    /**
     * Blocks until the server is closed (for the stand-alone main), then waits at most
     * {@value #SHUTDOWN_WAIT_SECONDS} s for the threads to stop.
     */
    public void awaitClose() {
        serverChannel.closeFuture().awaitUninterruptibly();
        group.terminationFuture().awaitUninterruptibly(SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS);
    }

    /**
     * Stops accepting, closes all sessions and data channels, and releases the threads. Waits at
     * most {@value #SHUTDOWN_WAIT_SECONDS} s (so a JVM shutdown hook can never hang on it).
     */
    @Override
    public void close() {
        serverChannel.close().awaitUninterruptibly(SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS);
        stripedDtp.close();
        dataChannels.close();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS);
        worker.shutdownNow();
    }

    private static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger counter = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
