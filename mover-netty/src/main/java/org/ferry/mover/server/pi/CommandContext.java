package org.ferry.mover.server.pi;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.AttributeKey;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Objects;
import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.server.dtp.LocalDtp;
import org.ferry.mover.storage.StorageException;
import org.ferry.mover.storage.StorageInterface;
import org.ferry.mover.storage.VirtualPaths;

/**
 * What a command handler may use: the session state, the storage interface, the session's transfer
 * runner (which drives the data transfer processes), the server configuration and the control
 * channel for replies. One per session; used from the session's command worker thread or its
 * event loop, one command at a time.
 */
public final class CommandContext {

    /**
     * The name of the control channel's {@code FlushConsolidationHandler}, next to the socket in the
     * pipeline; {@link #replyPromptly} flushes past it.
     */
    public static final String FLUSH_CONSOLIDATION = "flush";

    /**
     * This end's address as the client reached it, for a control channel that is not a socket (one
     * served over standard input and output, e.g. under sshd): what a socket's local address would be.
     */
    public static final AttributeKey<InetSocketAddress> STANDING_LOCAL_ADDRESS =
            AttributeKey.valueOf("ferry.control.local");

    /** The client's address for a control channel that is not a socket (e.g. from SSH_CONNECTION). */
    public static final AttributeKey<InetSocketAddress> STANDING_PEER_ADDRESS =
            AttributeKey.valueOf("ferry.control.peer");

    private final ControlSession session;
    private final StorageInterface storage;
    private final LocalDtp local;
    private final GridFtpServerConfig config;
    private final CommandRegistry registry;
    private final Channel channel;
    private volatile TransferRunner transfers;

    /**
     * @param session the session state
     * @param storage file system access, confined to the root
     * @param local the data transfer process in the server's process, which runs the plain transfers
     * @param config server settings
     * @param registry the command table (for FEAT and HELP)
     * @param channel the control channel
     */
    public CommandContext(
            ControlSession session,
            StorageInterface storage,
            LocalDtp local,
            GridFtpServerConfig config,
            CommandRegistry registry,
            Channel channel) {
        this.session = Objects.requireNonNull(session, "session");
        this.storage = Objects.requireNonNull(storage, "storage");
        this.local = Objects.requireNonNull(local, "local");
        this.config = Objects.requireNonNull(config, "config");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.channel = Objects.requireNonNull(channel, "channel");
    }

    /** @return the session state */
    public ControlSession session() {
        return session;
    }

    /** @return the storage interface */
    public StorageInterface storage() {
        return storage;
    }

    /**
     * @return this session's transfer runner: the data transfers of its commands, on the server's
     *     own DTP homed on this control channel's event loop, or striped over the server's DTPs
     */
    public TransferRunner transfers() {
        TransferRunner runner = transfers;
        if (runner == null) {
            // the loop is known once the channel is registered, and never changes: one per session
            // a control channel over standard input and output runs on an in-JVM loop without
            // sockets: its data connections then spread over the server's loops
            runner = new TransferRunner(
                    this,
                    channel instanceof io.netty.channel.local.LocalChannel
                            ? local
                            : local.homedOn(channel.eventLoop()));
            transfers = runner;
        }
        return runner;
    }

    /**
     * Whether this server accepts data connections on a local TCP port, in any session ({@link
     * LocalDtp#acceptsOn}, asked of the server's own data transfer process: nothing is made and
     * nothing can fail).
     *
     * @param port a TCP port, 0..65535
     * @return true while one of the server's passive listeners, or a connection one accepted, is
     *     open on {@code port}
     */
    public boolean acceptsDataOn(int port) {
        return local.acceptsOn(port);
    }

    /** @return the server configuration */
    public GridFtpServerConfig config() {
        return config;
    }

    /** @return the command table */
    public CommandRegistry registry() {
        return registry;
    }

    /** @return the control channel (its event loop runs marker timers) */
    public Channel channel() {
        return channel;
    }

    /**
     * Sends a reply; replies are written in the order of the calls.
     *
     * @param reply the reply
     */
    public void reply(FtpReply reply) {
        channel.writeAndFlush(reply);
    }

    /**
     * Sends a reply at once, past the control channel's flush consolidation (the handler named
     * {@link #FLUSH_CONSOLIDATION}, which otherwise holds a reply written while a command is read
     * until the read ends, so that replies written together leave in one write). For the preliminary
     * reply of a transfer (150/125, RFC 959 section 4.2): globus-url-copy reads a data block's header
     * and then waits on the control channel for that reply before it reads the payload, so the reply
     * sent before the file is read from storage wakes the client while the server still works, and
     * the payload finds it running; sent with the 226 after the data, it arrives after the client
     * has woken for the data. Only when the control client receives the data itself (a
     * third-party client reads no data and would wake twice): see
     * {@link PreliminaryReplyTiming}. Ordered with {@link #reply}
     * like any reply.
     *
     * @param reply the reply
     */
    public void replyPromptly(FtpReply reply) {
        channel.write(reply);
        ChannelHandlerContext consolidation = channel.pipeline().context(FLUSH_CONSOLIDATION);
        if (consolidation != null) {
            consolidation.flush(); // from the handler toward the socket: it does not hold this flush
        } else {
            channel.flush();
        }
    }

    /**
     * Sends a single-line reply.
     *
     * @param code reply code
     * @param text reply text
     */
    public void reply(int code, String text) {
        reply(FtpReply.of(code, text));
    }

    /**
     * Sends a reply and closes the control channel once it is written (QUIT, 421).
     *
     * @param code reply code
     * @param text reply text
     */
    public void replyAndClose(int code, String text) {
        channel.writeAndFlush(FtpReply.of(code, text)).addListener(ChannelFutureListener.CLOSE);
    }

    /**
     * Resolves a command argument against the current directory.
     *
     * @param argument the path from the command; empty for the current directory
     * @return normalised virtual absolute path
     * @throws StorageException if it climbs above the root or is invalid
     */
    public String resolve(String argument) throws StorageException {
        return VirtualPaths.resolve(session.cwd(), argument);
    }

    /** @return the local address the client reached this control channel on (for PASV/EPSV) */
    public InetAddress localAddress() {
        InetAddress bound = config.bindAddress();
        if (!bound.isAnyLocalAddress()) {
            return bound;
        }
        if (channel.localAddress() instanceof InetSocketAddress socket) {
            return socket.getAddress();
        }
        InetSocketAddress standing = channel.attr(STANDING_LOCAL_ADDRESS).get();
        return standing != null ? standing.getAddress() : bound;
    }

    /**
     * @return the control client's IP address and port: the socket's peer, or for a control channel
     *     over standard input and output the address given for it; null when unknown
     */
    public InetSocketAddress peerAddress() {
        if (channel.remoteAddress() instanceof InetSocketAddress socket) {
            return socket;
        }
        return channel.attr(STANDING_PEER_ADDRESS).get();
    }
}
