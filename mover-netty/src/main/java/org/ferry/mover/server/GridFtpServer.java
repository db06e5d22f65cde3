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
import io.netty.util.AttributeKey;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.ferry.mover.data.DataChannels;
import org.ferry.mover.net.BusyPoll;
import org.ferry.mover.net.StreamBridge;
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
import org.ferry.mover.server.pi.SessionLimitHandler;
import org.ferry.mover.server.popen.PopenPolicy;
import org.ferry.mover.storage.PosixStorage;
import org.ferry.mover.storage.StorageInterface;
import org.ferry.mover.stripe.StripeSends;

/**
 * A running GridFTP server (the Ferry counterpart of globus-gridftp-server) serving one root
 * directory over clear-text logins. Control channel pipeline per connection: the session limit
 * ({@link SessionLimitHandler}, when {@link GridFtpServerConfig#maxSessions()} is set), idle timeout,
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
    /** The in-JVM loop of a control channel over standard input and output, or null. */
    private final EventLoopGroup controlGroup;

    private GridFtpServer(
            EventLoopGroup group,
            ExecutorService worker,
            DataChannels dataChannels,
            Channel serverChannel,
            StripedDtp stripedDtp) {
        this(group, worker, dataChannels, serverChannel, stripedDtp, null);
    }

    private GridFtpServer(
            EventLoopGroup group,
            ExecutorService worker,
            DataChannels dataChannels,
            Channel serverChannel,
            StripedDtp stripedDtp,
            EventLoopGroup controlGroup) {
        this.controlGroup = controlGroup;
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
        return start(config, gsi, dtps, PopenPolicy.disabled());
    }

    /**
     * Binds the control channel and starts serving, with GSI if {@code gsi} is given, SPAS/SPOR
     * driving the DTPs {@code dtps} makes, and {@code SITE SETDISKSTACK popen:...} running the
     * programs {@code popen} allows (the Globus XIO Popen driver's behaviour, seed 003).
     *
     * @param config the settings
     * @param gsi host credential, trust and grid-mapfile for GSI, or null for none
     * @param dtps makes the DTPs for striped transfers ({@link DtpFactory#local()} or data nodes)
     * @param popen the programs clients may run on the data path ({@link PopenPolicy#disabled()}: none)
     * @return the running server
     * @throws IOException if the root is not a directory or the address cannot be bound
     */
    public static GridFtpServer start(
            GridFtpServerConfig config, GsiServerSecurity gsi, DtpFactory dtps, PopenPolicy popen) throws IOException {
        return start(config, gsi, dtps, popen, new PosixStorage(config.root()), UnaryOperator.identity());
    }

    /**
     * Binds the control channel and starts serving another storage than the configuration's root,
     * with a changed command table: what an embedding server (Ferry Connect's agent: several shared
     * directories, passive data connections through a relay) adds to the standard one. No programs
     * on the data path ({@link PopenPolicy#disabled()}).
     *
     * @param config the settings; its root is not read
     * @param gsi host credential, trust and grid-mapfile for GSI, or null for none
     * @param dtps makes the DTPs for striped transfers ({@link DtpFactory#local()} or data nodes)
     * @param storage what the sessions read and write
     * @param commands given the standard command table, returns the one to serve (e.g. {@link
     *     CommandRegistry#with} replacing handlers)
     * @return the running server
     * @throws IOException if the address cannot be bound
     */
    public static GridFtpServer start(
            GridFtpServerConfig config,
            GsiServerSecurity gsi,
            DtpFactory dtps,
            StorageInterface storage,
            UnaryOperator<CommandRegistry> commands)
            throws IOException {
        return start(config, gsi, dtps, PopenPolicy.disabled(), storage, commands);
    }

    /**
     * Binds the control channel and starts serving the configuration's root like {@link
     * #start(GridFtpServerConfig, GsiServerSecurity, DtpFactory, PopenPolicy)}, with a changed
     * command table (e.g. {@code SITE SETDISKSTACK} that also forwards {@code gridftp_multicast}).
     *
     * @param config the settings
     * @param gsi host credential, trust and grid-mapfile for GSI, or null for none
     * @param dtps makes the DTPs for striped transfers
     * @param popen the programs clients may run on the data path
     * @param commands given the standard command table, returns the one to serve
     * @return the running server
     * @throws IOException if the root is not a directory or the address cannot be bound
     */
    public static GridFtpServer start(
            GridFtpServerConfig config,
            GsiServerSecurity gsi,
            DtpFactory dtps,
            PopenPolicy popen,
            UnaryOperator<CommandRegistry> commands)
            throws IOException {
        return start(config, gsi, dtps, popen, new PosixStorage(config.root()), commands);
    }

    private static GridFtpServer start(
            GridFtpServerConfig config,
            GsiServerSecurity gsi,
            DtpFactory dtps,
            PopenPolicy popen,
            StorageInterface storage,
            UnaryOperator<CommandRegistry> commands)
            throws IOException {
        Parts parts = Parts.create(config, gsi, dtps, popen, storage, commands);
        AtomicInteger sessions = new AtomicInteger();
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(parts.group)
                .channel(parts.transport.serverSocketChannel())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (config.maxSessions() > 0) {
                            ch.pipeline()
                                    .addLast("sessionLimit", new SessionLimitHandler(sessions, config.maxSessions()));
                        }
                        parts.busyPoll.track(ch);
                        parts.initControlChannel(ch);
                    }
                });
        try {
            Channel channel = bootstrap
                    .bind(new InetSocketAddress(config.bindAddress(), config.port()))
                    .syncUninterruptibly()
                    .channel();
            return new GridFtpServer(parts.group, parts.worker, parts.dataChannels, channel, parts.stripedDtp);
        } catch (RuntimeException e) {
            parts.close();
            throw new IOException(
                    "cannot bind " + config.bindAddress().getHostAddress() + ":" + config.port() + ": "
                            + e.getMessage(),
                    e);
        }
    }

    /**
     * Serves one control connection that is already open as a pair of byte streams, with data
     * channels over TCP: what {@code globus-gridftp-server -i} (inetd) and {@code -ssh} do, where sshd
     * or inetd connected the client to this process's standard input and output (the remote side of
     * {@code sshftp://}). {@link #awaitClose()} returns once the session ended (QUIT, end of
     * {@code in}, idle timeout); the addresses stand in for a socket's: passive data listeners bind
     * and announce {@code local}'s address unless {@code config} binds a specific one, and logs name
     * {@code peer}.
     *
     * @param config the settings ({@link GridFtpServerConfig#port()} is not used)
     * @param gsi host credential, trust and grid-mapfile for GSI, or null for none
     * @param popen the programs clients may run on the data path
     * @param in the control channel's bytes from the client (standard input); read by a daemon thread
     * @param out the bytes to the client (standard output); written by a daemon thread
     * @param local this end's address as the client reached it (e.g. from {@code SSH_CONNECTION})
     * @param peer the client's address, for logs
     * @return the running server
     * @throws IOException if the root is not a directory or the streams cannot be bridged
     */
    public static GridFtpServer serveStreams(
            GridFtpServerConfig config,
            GsiServerSecurity gsi,
            PopenPolicy popen,
            InputStream in,
            OutputStream out,
            InetSocketAddress local,
            InetSocketAddress peer)
            throws IOException {
        Parts parts = Parts.create(
                config, gsi, DtpFactory.local(), popen, new PosixStorage(config.root()), UnaryOperator.identity());
        EventLoopGroup controlGroup = StreamBridge.newGroup();
        try {
            Map<AttributeKey<InetSocketAddress>, InetSocketAddress> addresses = new HashMap<>();
            addresses.put(CommandContext.STANDING_LOCAL_ADDRESS, local);
            addresses.put(CommandContext.STANDING_PEER_ADDRESS, peer);
            StreamBridge bridge = StreamBridge.open(controlGroup, in, out, addresses, parts::initControlChannel);
            return new GridFtpServer(
                    parts.group, parts.worker, parts.dataChannels, bridge.done(), parts.stripedDtp, controlGroup);
        } catch (IOException | RuntimeException e) {
            parts.close();
            controlGroup.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw e instanceof IOException io ? io : new IOException("cannot serve standard input: " + e, e);
        }
    }

    /** What every control channel of one server shares: threads, data channels, commands, storage. */
    private static final class Parts {
        final Transport transport;
        final BusyPoll busyPoll;
        final EventLoopGroup group;
        final ExecutorService worker;
        final DataChannels dataChannels;
        final LocalDtp local;
        final StripedDtp stripedDtp;
        final CommandRegistry registry;
        final StorageInterface storage;
        final GridFtpServerConfig config;
        final GsiServerSecurity gsi;
        final String banner;

        private Parts(
                GridFtpServerConfig config,
                GsiServerSecurity gsi,
                DtpFactory dtps,
                PopenPolicy popen,
                StorageInterface storage,
                UnaryOperator<CommandRegistry> commands) {
            this.config = config;
            this.gsi = gsi;
            this.storage = storage;
            this.transport = Transport.preferred();
            this.busyPoll = new BusyPoll(config.busyPoll(), Runtime.getRuntime().availableProcessors());
            this.group = transport.newGroup(0, null, busyPoll.strategies());
            this.worker = Executors.newCachedThreadPool(daemonThreads("ferry-gridftp-pi"));
            this.dataChannels = new DataChannels(group).rateLimited(shaper(group, config));
            this.local = new LocalDtp("local", dataChannels, new StripeSends(group), storage);
            this.stripedDtp = new StripedDtp(dtps.create(group, local));
            this.registry = commands.apply(
                    gsi == null
                            ? StandardCommands.registry(stripedDtp, popen)
                            : GsiCommands.registry(stripedDtp, popen));
            this.banner = (config.bindAddress().isAnyLocalAddress()
                            ? ""
                            : config.bindAddress().getHostAddress() + " ") + "Ferry GridFTP Server 0.1 ready.";
        }

        static Parts create(
                GridFtpServerConfig config,
                GsiServerSecurity gsi,
                DtpFactory dtps,
                PopenPolicy popen,
                StorageInterface storage,
                UnaryOperator<CommandRegistry> commands) {
            return new Parts(config, gsi, dtps, popen, storage, commands);
        }

        /** The control channel pipeline, the same over a socket or over standard input and output. */
        void initControlChannel(Channel ch) {
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
                            new IdleStateHandler(0, 0, config.idleTimeout().toMillis(), TimeUnit.MILLISECONDS))
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

        void close() {
            stripedDtp.close();
            dataChannels.close();
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            worker.shutdownNow();
        }
    }

    /** @return the bound control channel port (the ephemeral one when configured with 0) */
    public int port() {
        return address().getPort();
    }

    /** @return the bound control channel address */
    public InetSocketAddress address() {
        if (serverChannel.localAddress() instanceof InetSocketAddress socket) {
            return socket;
        }
        return InetSocketAddress.createUnresolved("stdio", 0); // serveStreams: no control port
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
        if (controlGroup != null) {
            return; // one session served: close() releases the rest
        }
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
        if (controlGroup != null) {
            controlGroup
                    .shutdownGracefully(0, 2, TimeUnit.SECONDS)
                    .awaitUninterruptibly(SHUTDOWN_WAIT_SECONDS, TimeUnit.SECONDS);
        }
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
