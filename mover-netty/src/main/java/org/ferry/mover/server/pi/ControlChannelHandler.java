package org.ferry.mover.server.pi;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.timeout.IdleStateEvent;
import java.io.IOException;
import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.ferry.mover.protocol.FtpCommand;
import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.storage.StorageException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-connection end of the control channel pipeline. It never runs commands on the event
 * loop: commands are queued (pipelining, RFC 959 section 4.2/3.5) and executed one at a
 * time, strictly in order, on a worker {@link Executor}. Reading continues while a command (a
 * transfer) runs, so {@code ABOR} is seen at once: it cancels the running transfer and jumps the
 * queue (RFC 959 section 4.1.3). Sends the 220 banner on connect and 421 on idle timeout.
 */
public final class ControlChannelHandler extends SimpleChannelInboundHandler<FtpCommand> {

    private static final Logger LOG = LoggerFactory.getLogger(ControlChannelHandler.class);

    /** Commands queued beyond this are refused with 500 (globus: "Pipeline queue full."). */
    static final int MAX_QUEUED_COMMANDS = 1000;

    private final Function<io.netty.channel.Channel, CommandContext> contextFactory;
    private final CommandDispatcher dispatcher;
    private final Executor worker;
    private final String banner;
    private final Deque<Runnable> queue = new ConcurrentLinkedDeque<>();
    private final AtomicBoolean draining = new AtomicBoolean();
    private CommandContext context;

    /**
     * @param contextFactory makes the session context once the channel is active
     * @param registry the command table
     * @param worker runs commands off the event loop (shared by sessions; each session is serial)
     * @param banner text of the 220 greeting
     */
    public ControlChannelHandler(
            Function<io.netty.channel.Channel, CommandContext> contextFactory,
            CommandRegistry registry,
            Executor worker,
            String banner) {
        this.contextFactory = contextFactory;
        this.dispatcher = new CommandDispatcher(registry);
        this.worker = worker;
        this.banner = banner;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        context = contextFactory.apply(ctx.channel());
        ctx.writeAndFlush(FtpReply.of(220, banner));
        super.channelActive(ctx);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FtpCommand command) {
        LOG.debug("{} <- {}", ctx.channel().remoteAddress(), command);
        if (queue.size() >= MAX_QUEUED_COMMANDS) {
            queue.addLast(() -> context.reply(500, "Pipeline queue full."));
        } else if (!command.tooLong()
                && "ABOR".equals(command.verb())
                && context.session().abortTransfer()) {
            queue.addFirst(() -> dispatcher.dispatch(context, command));
        } else {
            queue.addLast(() -> dispatcher.dispatch(context, command));
        }
        drain();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (context != null) {
            context.session().close();
            queue.clear();
            queue.addLast(() -> context.session().dataEndpoint(null));
            drain();
        }
        super.channelInactive(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent && context.session().activeTransfer() == null) {
            queue.addLast(() -> context.replyAndClose(421, "Idle Timeout: closing control connection."));
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

    private void drain() {
        if (!draining.compareAndSet(false, true)) {
            return;
        }
        worker.execute(() -> {
            try {
                Runnable task;
                while ((task = queue.pollFirst()) != null) {
                    try {
                        task.run();
                    } catch (RuntimeException e) {
                        LOG.warn("command task failed", e);
                    }
                }
            } finally {
                draining.set(false);
                if (!queue.isEmpty()) {
                    drain();
                }
            }
        });
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

        void dispatch(CommandContext ctx, FtpCommand command) {
            ControlSession session = ctx.session();
            if (session.closed()) {
                return;
            }
            CommandHandler handler = null;
            boolean failed = true;
            try {
                if (command.tooLong()) {
                    ctx.reply(500, "Command line too long.");
                    return;
                }
                FtpReply gsiRefusal = GsiAuthenticationGate.check(ctx, command);
                if (gsiRefusal != null) {
                    ctx.reply(gsiRefusal);
                    return;
                }
                var resolved = registry.lookup(command);
                if (resolved.isEmpty()) {
                    ctx.reply(500, "Invalid command.");
                    return;
                }
                if (!session.loggedIn() && !resolved.get().handler().allowedBeforeLogin()) {
                    ctx.reply(530, "Please login with USER and PASS.");
                    return;
                }
                handler = resolved.get().handler();
                handler.handle(ctx, resolved.get().argument());
                failed = false;
            } catch (FtpException e) {
                ctx.reply(e.reply());
            } catch (StorageException e) {
                ctx.reply(ErrorReplies.of(e));
            } catch (IOException e) {
                ctx.reply(451, "Local error in processing: " + e.getMessage());
            } catch (RuntimeException e) {
                LOG.warn("command {} failed", command, e);
                ctx.reply(500, "Internal error.");
            } finally {
                if (failed && handler != null && handler.movesData()) {
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
    }
}
