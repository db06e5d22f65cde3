package org.ferry.mover.server.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.flush.FlushConsolidationHandler;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.ferry.mover.data.DataChannels;
import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.CommandRegistry;
import org.ferry.mover.server.pi.ControlSession;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.ferry.mover.storage.PosixStorage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transfer's 150/125, when prompt ({@link PreliminaryReplyTiming}), leaves the server before the
 * transfer starts, even while the command that asked for it is still being read (when the control channel's flush consolidation holds every
 * other reply until the read ends): globus-url-copy reads no payload before it. The control
 * channel is the server's own pipeline head (its {@link FlushConsolidationHandler} under
 * {@link CommandContext#FLUSH_CONSOLIDATION}) on an {@link EmbeddedChannel}, whose outbound queue
 * holds what was flushed toward the socket; the command's read is played by the test.
 */
class PreliminaryReplyTest {

    @TempDir
    Path root;

    private EmbeddedChannel channel;

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
        channel = new EmbeddedChannel();
        channel.pipeline()
                .addLast(
                        CommandContext.FLUSH_CONSOLIDATION,
                        new FlushConsolidationHandler(
                                FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true));
        return new CommandContext(
                new ControlSession(),
                new PosixStorage(root),
                new DataChannels(channel.eventLoop()),
                GridFtpServerConfig.loopback(root),
                CommandRegistry.of(List.of()),
                channel);
    }
}
