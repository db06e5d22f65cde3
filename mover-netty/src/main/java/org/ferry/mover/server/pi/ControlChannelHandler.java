package org.ferry.mover.server.pi;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.timeout.IdleStateEvent;
import java.io.IOException;
import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.protocol.FtpCommand;
import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.server.dtp.ErrorReplies;
import org.ferry.mover.storage.StorageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-connection end of the control channel pipeline. Commands are queued (pipelining, RFC
 * 959 section 4.2/3.5) and executed one at a time, strictly in order: on the channel's event loop
 * when the handler {@linkplain CommandHandler#runsOnEventLoop allows it} (RETR and STOR, which start
 * a transfer and return; the next command runs when its last reply is out), otherwise on a worker
 * {@link Executor}, where a command may block. A batch of pipelined RETRs thus runs without a thread
 * hand-off per file, as a globus-gridftp-server session does in its one thread. Reading continues
 * while a command (a transfer) runs, so {@code ABOR} is seen at once: it cancels the running
 * transfer and jumps the queue (RFC 959 section 4.1.3). Sends the 220 banner on connect and 421 on
 * idle timeout. When the input ends ({@link ChannelInputShutdownEvent}: a half-closed channel, or the
 * end of standard input under {@code --ssh}/{@code --inetd}), every command read before it is still
 * answered, in order, and then the channel closes; when the channel itself closes, queued commands
 * are dropped (nobody is left to answer).
 */
public final class ControlChannelHandler extends SimpleChannelInboundHandler<FtpCommand> {

    private static final Logger LOG = LoggerFactory.getLogger(ControlChannelHandler.class);

    /** Commands queued beyond this are refused with 500 (globus: "Pipeline queue full."). */
    static final int MAX_QUEUED_COMMANDS = 1000;

    private final Function<io.netty.channel.Channel, CommandContext> contextFactory;
    private final CommandDispatcher dispatcher;
    private final Executor worker;
    private final String banner;
    private final Runnable awaitingCommand;
    private final Deque<Queued> queue = new ConcurrentLinkedDeque<>();
    private final AtomicBoolean draining = new AtomicBoolean();
    /**
     * Set by the worker when it ran work (whose replies it wrote through the event loop's task
     * queue); read and cleared on the event loop before it runs a command itself.
     */
    private volatile boolean workerRan;

    private CommandContext context;
    private io.netty.channel.EventLoop eventLoop;

    /**
     * One queued piece of work: a command, or an action of the handler itself (a refusal, the
     * cleanup after the channel closed).
     */
    private record Queued(FtpCommand command, Runnable action) {}

    /**
     * @param contextFactory makes the session context once the channel is active
     * @param registry the command table
     * @param worker runs commands off the event loop (shared by sessions; each session is serial)
     * @param banner text of the 220 greeting
     * @param awaitingCommand told, on the thread that ran the session's last queued command, that
     *     the queue ran dry: the session has answered everything and waits for the client (e.g.
     *     {@link org.ferry.mover.net.BusyPoll#expectCommand()}); {@code () -> {}} for nothing
     */
    public ControlChannelHandler(
            Function<io.netty.channel.Channel, CommandContext> contextFactory,
            CommandRegistry registry,
            Executor worker,
            String banner,
            Runnable awaitingCommand) {
        this.contextFactory = contextFactory;
        this.dispatcher = new CommandDispatcher(registry);
        this.worker = worker;
        this.banner = banner;
        this.awaitingCommand = awaitingCommand;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        context = contextFactory.apply(ctx.channel());
        eventLoop = ctx.channel().eventLoop();
        ctx.writeAndFlush(FtpReply.of(220, banner));
        super.channelActive(ctx);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FtpCommand command) {
        LOG.debug("{} <- {}", ctx.channel().remoteAddress(), command);
        if (queue.size() >= MAX_QUEUED_COMMANDS) {
            queue.addLast(new Queued(null, () -> context.reply(500, "Pipeline queue full.")));
        } else if (!command.tooLong()
                && "ABOR".equals(command.verb())
                && context.session().abortTransfer()) {
            queue.addFirst(new Queued(command, null));
        } else {
            queue.addLast(new Queued(command, null));
        }
        drain();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (context != null) {
            context.session().close();
            queue.clear();
            queue.addLast(new Queued(null, () -> {
                context.session().dataEndpoint(null);
                // after the session's last command, which may have kept a directory open
                context.storage().release();
            }));
            drain();
        }
        super.channelInactive(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof ChannelInputShutdownEvent && context != null) {
            // the client's input ended (sshd or inetd closed standard input, possibly right after
            // the last commands): answer every command read before it, in order, then close
            queue.addLast(new Queued(null, () -> context.channel().close()));
            drain();
            return;
        }
        if (evt instanceof IdleStateEvent && context.session().activeTransfer() == null) {
            queue.addLast(
                    new Queued(null, () -> context.replyAndClose(421, "Idle Timeout: closing control connection.")));
            drain();
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof IOException) {
            LOG.debug("control channel {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
        } else {
            LOG.warn("control channel {} failed", ctx.channel().remoteAddress(), cause);
        }
        ctx.close();
    }

    /** Starts running the queue unless it runs already; called on the event loop. */
    private void drain() {
        if (draining.compareAndSet(false, true)) {
            runQueue(true);
        }
    }

    /** Runs the queue on again after a command that was still running when it started completed. */
    private void resume() {
        if (eventLoop.inEventLoop()) {
            runQueue(true);
        } else {
            eventLoop.execute(() -> runQueue(true));
        }
    }

    /**
     * Runs queued work in order until the queue is empty (then clears {@code draining}) or a command
     * is still running when it returns (then its completion calls {@link #resume}). On the event
     * loop, work that may block moves the run to the worker; the worker runs whatever comes. Only
     * the event loop adds to the queue, so the head seen on it is the head taken.
     */
    private void runQueue(boolean onEventLoop) {
        while (true) {
            Queued next = queue.peekFirst();
            if (next == null) {
                // the batch may have ended, or the client is between two files: what the storage
                // kept for it (a directory) is checked against its path before it serves again,
                // unless it was checked a moment ago
                context.storage().batchPaused();
                draining.set(false);
                if (queue.isEmpty()) {
                    awaitingCommand.run();
                    return;
                }
                // an addition raced the flag: take the run back unless another has it
                if (!draining.compareAndSet(false, true)) {
                    return;
                }
                continue;
            }
            if (onEventLoop && (next.command() == null || !dispatcher.runsOnEventLoop(context, next.command()))) {
                worker.execute(() -> runQueue(false));
                return;
            }
            if (onEventLoop && workerRan) {
                // Replies the worker wrote wait as tasks in this loop's queue; a reply written here
                // now would overtake them (seen: TYPE I answered before a pipelined USER and PASS).
                // Run on behind them: the loop takes its tasks in order.
                workerRan = false;
                eventLoop.execute(() -> runQueue(true));
                return;
            }
            if (!onEventLoop) {
                workerRan = true;
            }
            next = queue.pollFirst();
            java.util.concurrent.CompletableFuture<?> running = null;
            try {
                if (next.command() == null) {
                    next.action().run();
                } else {
                    running = dispatcher.dispatch(context, next.command());
                }
            } catch (RuntimeException e) {
                LOG.warn("command task failed", e);
            }
            if (running != null && !running.isDone()) {
                running.whenComplete((result, error) -> resume());
                return;
            }
        }
    }

    /**
     * Runs one command: GSI login sequence ({@link GsiAuthenticationGate}), login policy, handler
     * lookup, error mapping. Stateless.
     */
    static final class CommandDispatcher {

        private final CommandRegistry registry;

        CommandDispatcher(CommandRegistry registry) {
            this.registry = registry;
        }

        /**
         * @return true if {@code command} may be started on the event loop: a logged-in session's
         *     command whose handler {@linkplain CommandHandler#runsOnEventLoop does not block} now
         */
        boolean runsOnEventLoop(CommandContext ctx, FtpCommand command) {
            ControlSession session = ctx.session();
            if (command.tooLong() || session.closed() || !session.loggedIn()) {
                return false;
            }
            var resolved = registry.lookup(command);
            return resolved.isPresent() && resolved.get().handler().runsOnEventLoop(session);
        }

        /**
         * @return null when the command is done, or the command's transfer, which completes when
         *     its last reply (226 or the failure) is out
         */
        java.util.concurrent.CompletableFuture<?> dispatch(CommandContext ctx, FtpCommand command) {
            ControlSession session = ctx.session();
            if (session.closed()) {
                return null;
            }
            CommandHandler handler = null;
            boolean failed = true;
            try {
                if (command.tooLong()) {
                    ctx.reply(500, "Command line too long.");
                    return null;
                }
                FtpReply gsiRefusal = GsiAuthenticationGate.check(ctx, command);
                if (gsiRefusal != null) {
                    ctx.reply(gsiRefusal);
                    return null;
                }
                var resolved = registry.lookup(command);
                if (resolved.isEmpty()) {
                    ctx.reply(500, "Invalid command.");
                    return null;
                }
                if (!session.loggedIn() && !resolved.get().handler().allowedBeforeLogin()) {
                    ctx.reply(530, "Please login with USER and PASS.");
                    return null;
                }
                handler = resolved.get().handler();
                if (!handler.movesData()) {
                    // a command that may change the names a batch's files are opened under (MKD,
                    // RNTO, DELE, ...): the files after it check the kept directory against its path
                    ctx.storage().endBatch();
                }
                var running = handler.start(ctx, resolved.get().argument());
                failed = false;
                if (running == null) {
                    return null;
                }
                CommandHandler started = handler;
                return running.toCompletableFuture().handle((result, error) -> {
                    if (error != null) {
                        replyFailure(
                                ctx,
                                command,
                                error instanceof java.util.concurrent.CompletionException ? error.getCause() : error);
                        if (started.movesData()) {
                            session.dataEndpoint(null);
                        }
                    }
                    return null;
                });
            } catch (FtpException | IOException | RuntimeException e) {
                replyFailure(ctx, command, e);
                return null;
            } finally {
                if (failed && handler != null && handler.movesData() && !refusedSendKeepsChannels(session, handler)) {
                    session.dataEndpoint(null);
                }
                if (!"REST".equals(command.verb())) {
                    session.clearRestart();
                }
                if (!"RNFR".equals(command.verb())) {
                    session.renameFrom(null);
                }
            }
        }

        /**
         * A RETR/ERET refused before its transfer started (a missing file) sent nothing: in MODE E
         * towards a PORT address its cached connections are idle, EOD sent, and stay usable. Dropping
         * them now could also cut off a pipelining receiver that is still reading the previous
         * file's blocks from them (GFD.020 "Extended Block Mode", data connection reuse).
         */
        private static boolean refusedSendKeepsChannels(ControlSession session, CommandHandler handler) {
            return handler.sendsFile()
                    && session.mode() == TransferMode.EXTENDED_BLOCK
                    && session.dataEndpoint() instanceof DataEndpoint.Active;
        }

        private static void replyFailure(CommandContext ctx, FtpCommand command, Throwable error) {
            if (error instanceof FtpException e) {
                ctx.reply(e.reply());
            } else if (error instanceof StorageException e) {
                ctx.reply(ErrorReplies.of(e));
            } else if (error instanceof IOException e) {
                ctx.reply(451, "Local error in processing: " + e.getMessage());
            } else {
                LOG.warn("command {} failed", command, error);
                ctx.reply(500, "Internal error.");
            }
        }
    }
}
