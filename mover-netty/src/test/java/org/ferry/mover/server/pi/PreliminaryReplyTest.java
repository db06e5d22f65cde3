package org.ferry.mover.server.pi;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.local.LocalAddress;
import io.netty.channel.nio.NioIoHandler;
import io.netty.handler.flush.FlushConsolidationHandler;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.ferry.mover.data.DataChannels;
import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.data.PassiveListener;
import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.server.dtp.LocalDtp;
import org.ferry.mover.storage.PosixStorage;
import org.ferry.mover.stripe.StripeSends;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When and how a transfer's 150/125 leaves. Prompt ({@link PreliminaryReplyTiming}) only when the
 * data goes to the control client itself: an active endpoint on the control peer's address, on a
 * port that is not one of this server's own listeners (a transfer between two sessions of one
 * server); then it leaves before the transfer starts, even while the command that asked for it is
 * still being read (when the control channel's flush consolidation holds every other reply until
 * the read ends): globus-url-copy reads no payload before it. The control channel is the server's
 * own pipeline head (its {@link FlushConsolidationHandler} under {@link
 * CommandContext#FLUSH_CONSOLIDATION}) on an {@link EmbeddedChannel} with the client's address as
 * its peer, whose outbound queue holds what was flushed toward the socket; the command's read is
 * played by the test. The data listeners are real, on loopback: this server's own ({@link
 * DataChannels#listen}) and another process's stand-in (a plain {@link ServerSocket}, as
 * globus-url-copy's data listener).
 */
class PreliminaryReplyTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final InetSocketAddress CLIENT = new InetSocketAddress(LOOPBACK, 40_000);
    private static EventLoopGroup group;

    @TempDir
    Path root;

    private EmbeddedChannel channel;

    @BeforeAll
    static void startLoops() {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    }

    @AfterAll
    static void stopLoops() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @AfterEach
    void close() {
        if (channel != null) {
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void thePreliminaryReplyIsFlushedBeforeTheTransferStartsWhileTheCommandIsRead() throws Exception {
        assertThat(flushedWhenTheTransferStarts(true, true))
                .extracting(reply -> ((FtpReply) reply).code())
                .containsExactly(125);
    }

    @Test
    void withoutPromptThePreliminaryReplyWaitsForTheEndOfTheReadLikeAnyOther() throws Exception {
        assertThat(flushedWhenTheTransferStarts(false, false)).isEmpty();
        assertThat(channel.outboundMessages())
                .extracting(reply -> ((FtpReply) reply).code())
                .containsExactly(150);
    }

    /**
     * Starts a transfer while a command is read.
     *
     * @return what had been flushed toward the socket when the transfer itself started (where the
     *     data would be read and sent)
     */
    private List<Object> flushedWhenTheTransferStarts(boolean reusing, boolean prompt) throws Exception {
        List<Object> flushedAtStart = new ArrayList<>();
        CommandContext ctx = context();
        whileReadingACommand(() -> {
            try {
                RunningTransfer.start(ctx, new MarkerPlan(0, null, 0, null), reusing, prompt, null, () -> {
                    flushedAtStart.addAll(channel.outboundMessages());
                    return new CompletableFuture<>();
                });
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        return flushedAtStart;
    }

    @Test
    void otherRepliesStillWaitForTheEndOfTheReadAndLeaveInOrder() throws Exception {
        CommandContext ctx = context();
        List<Integer> flushedDuringRead = new ArrayList<>();
        whileReadingACommand(() -> {
            ctx.reply(FtpReply.of(200, "first"));
            flushedDuringRead.add(channel.outboundMessages().size());
            ctx.replyPromptly(FtpReply.of(150, "second"));
            flushedDuringRead.add(channel.outboundMessages().size());
            ctx.reply(FtpReply.of(226, "third"));
            flushedDuringRead.add(channel.outboundMessages().size());
        });
        // the plain reply waits; the prompt one takes everything written before it along, in order;
        // the reply after it waits for the read's end again
        assertThat(flushedDuringRead).containsExactly(0, 2, 2);
        assertThat(channel.outboundMessages())
                .extracting(reply -> ((FtpReply) reply).code())
                .containsExactly(200, 150, 226);
    }

    @Test
    void promptWhenTheClientsHostListensOnAPortNotOurs() throws Exception {
        try (ServerSocket clientListener = new ServerSocket(0, 1, LOOPBACK)) {
            var endpoint = new DataEndpoint.Active(new InetSocketAddress(LOOPBACK, clientListener.getLocalPort()));
            assertThat(PreliminaryReplyTiming.prompt(context(CLIENT, new DataChannels(group)), endpoint))
                    .isTrue();
        }
    }

    @Test
    void notPromptWhenTheDataGoesToOneOfThisServersOwnListeners() throws Exception {
        DataChannels server = new DataChannels(group);
        // another session's listener, made through its own view of the server's data channels
        try (PassiveListener own = server.homedOn(group.next()).listen(LOOPBACK)) {
            var endpoint = new DataEndpoint.Active(own.address());
            assertThat(PreliminaryReplyTiming.prompt(context(CLIENT, server), endpoint))
                    .isFalse();
        }
    }

    @Test
    void notPromptWhenTheDataGoesToAnotherHost() throws Exception {
        var elsewhere = new DataEndpoint.Active(new InetSocketAddress(InetAddress.getByName("192.0.2.7"), 50_000));
        assertThat(PreliminaryReplyTiming.prompt(context(CLIENT, new DataChannels(group)), elsewhere))
                .isFalse();
    }

    @Test
    void notPromptWhenThisServerListensOrThePeerIsNotAnIpAddress() throws Exception {
        DataChannels server = new DataChannels(group);
        try (PassiveListener own = server.listen(LOOPBACK);
                ServerSocket clientListener = new ServerSocket(0, 1, LOOPBACK)) {
            assertThat(PreliminaryReplyTiming.prompt(context(CLIENT, server), new DataEndpoint.Passive(own)))
                    .isFalse();
            channel.finishAndReleaseAll();
            var active = new DataEndpoint.Active(new InetSocketAddress(LOOPBACK, clientListener.getLocalPort()));
            assertThat(PreliminaryReplyTiming.prompt(context(new LocalAddress("client"), server), active))
                    .isFalse();
        }
    }

    /** Runs {@code duringRead} inside a channelRead of the control channel, then ends the read. */
    private void whileReadingACommand(Runnable duringRead) {
        channel.pipeline().addLast("session", new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext handler, Object msg) {
                duringRead.run();
            }
        });
        channel.writeInbound("RETR f"); // channelRead, then channelReadComplete
    }

    private CommandContext context() throws Exception {
        return context(CLIENT, new DataChannels(group));
    }

    /**
     * A session context whose control channel (the test's {@link #channel}) has {@code peer} as its
     * remote address, on {@code dataChannels}.
     */
    private CommandContext context(SocketAddress peer, DataChannels dataChannels) throws Exception {
        channel = new EmbeddedChannel() {
            @Override
            protected SocketAddress remoteAddress0() {
                return peer;
            }
        };
        channel.pipeline()
                .addLast(
                        CommandContext.FLUSH_CONSOLIDATION,
                        new FlushConsolidationHandler(
                                FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true));
        PosixStorage storage = new PosixStorage(root);
        return new CommandContext(
                new ControlSession(),
                storage,
                new LocalDtp("local", dataChannels, new StripeSends(group), storage),
                GridFtpServerConfig.loopback(root),
                CommandRegistry.of(List.of()),
                channel);
    }
}
