package org.ferry.mover.server.pi;

import io.netty.util.concurrent.ScheduledFuture;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.protocol.Markers;
import org.ferry.mover.server.dtp.DtpException;

/**
 * One started data transfer and the replies around it (RFC 959 section 4.2): the ABOR placeholder
 * and {@code 150}/{@code 125} ({@link TransferStart}), the 112/111 marker timers while it runs, and
 * at its end the final markers, the verifier and {@code 226}, or the failure reply (426 when
 * aborted, else as {@link DtpException#of} maps the cause) with a last 111 marker of what is on
 * disk. The same for the plain and the striped paths, blocking ({@link #await}) or not ({@link
 * #whenReplied}).
 */
final class RunningTransfer {

    // the replies every file of a batch gets: made once
    private static final FtpReply BEGINNING = FtpReply.of(150, "Beginning transfer.");
    private static final FtpReply REUSING = FtpReply.of(125, "Beginning transfer; reusing existing data connection.");
    private static final FtpReply COMPLETE = FtpReply.of(226, "Transfer Complete.");

    private final CommandContext ctx;
    private final MarkerPlan markers;
    private final TransferRunner.Verifier verifier;
    private final CompletableFuture<Long> future;
    private final List<ScheduledFuture<?>> timers = new ArrayList<>(2);
    private final AtomicBoolean perfSent = new AtomicBoolean();
    private final AtomicBoolean rangeSent = new AtomicBoolean();

    private RunningTransfer(
            CommandContext ctx, MarkerPlan markers, TransferRunner.Verifier verifier, CompletableFuture<Long> future) {
        this.ctx = ctx;
        this.markers = markers;
        this.verifier = verifier;
        this.future = future;
    }

    /**
     * Starts a transfer: the placeholder, 150 (or 125 when cached connections are reused), the
     * start itself, the marker timers.
     *
     * @param ctx the session context
     * @param markers which markers go out and how often
     * @param reusing whether the transfer reuses the session's cached MODE E connections
     * @param prompt whether 150/125 leaves at once rather than with the replies after it ({@link
     *     PreliminaryReplyTiming})
     * @param verifier work before 226, or null
     * @param starter starts the data transfer; its future completes with the bytes moved
     * @return the running transfer
     * @throws FtpException 451 when the start itself throws
     */
    static RunningTransfer start(
            CommandContext ctx,
            MarkerPlan markers,
            boolean reusing,
            boolean prompt,
            TransferRunner.Verifier verifier,
            Supplier<CompletableFuture<Long>> starter)
            throws FtpException {
        ControlSession session = ctx.session();
        CompletableFuture<Long> future;
        try {
            future = TransferStart.begin(session, new Reply(ctx, reusing ? REUSING : BEGINNING, prompt), starter);
        } catch (RuntimeException e) {
            session.dataEndpoint(null);
            throw new FtpException(451, "Data transfer failed to start: " + e);
        }
        RunningTransfer running = new RunningTransfer(ctx, markers, verifier, future);
        if (markers.perfMillis() > 0) {
            running.timers.add(schedule(ctx, markers.perfMillis(), () -> {
                running.perfSent.set(true);
                markers.perf().apply(System.currentTimeMillis()).forEach(ctx::reply);
            }));
        }
        if (markers.rangeMillis() > 0 && markers.ranges() != null) {
            running.timers.add(schedule(
                    ctx,
                    markers.rangeMillis(),
                    () -> running.rangeSent.compareAndSet(false, running.sendRangeMarker())));
        }
        return running;
    }

    /**
     * Blocks the calling command worker until the transfer ends, then sends its end replies.
     *
     * @return bytes moved, once 226 is sent
     * @throws FtpException the failure reply owed (426 when aborted or interrupted)
     */
    long await() throws FtpException {
        long transferred;
        try {
            transferred = future.get();
        } catch (CancellationException e) {
            throw failed(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            future.cancel(true);
            throw failed(new CancellationException());
        } catch (ExecutionException e) {
            throw failed(e.getCause());
        }
        return succeeded(transferred);
    }

    /**
     * Like {@link #await} without blocking: the transfer's end (final markers, 226 or the failure
     * reply's exception) is handled on the thread that completes it, an event loop.
     *
     * @return completes with the bytes moved once 226 is sent, or exceptionally with the {@link
     *     FtpException} to reply
     */
    CompletableFuture<Long> whenReplied() {
        CompletableFuture<Long> replied = new CompletableFuture<>();
        future.whenComplete((transferred, error) -> {
            try {
                if (error == null) {
                    replied.complete(succeeded(transferred));
                } else {
                    replied.completeExceptionally(
                            failed(error instanceof CompletionException ? error.getCause() : error));
                }
            } catch (FtpException | RuntimeException e) {
                replied.completeExceptionally(e);
            }
        });
        return replied;
    }

    /** The transfer moved every byte: final markers, the verifier, 226. */
    private long succeeded(long transferred) throws FtpException {
        ControlSession session = ctx.session();
        boolean reusable = false;
        try {
            reusable = session.mode() == TransferMode.EXTENDED_BLOCK;
            cancelTimers();
            // Final markers complete what the periodic ones told a client that follows them (the
            // total; the last ranges); a transfer shorter than one period (most small files) ends
            // with 226 alone, as globus's does, which says every byte is there.
            if (perfSent.get()) {
                markers.perf().apply(System.currentTimeMillis()).forEach(ctx::reply);
            }
            if (rangeSent.get()) {
                sendRangeMarker();
            }
            if (verifier != null) {
                verifier.verify();
            }
            ctx.reply(COMPLETE);
            return transferred;
        } finally {
            end(reusable);
        }
    }

    /** @return the reply owed for a transfer that failed with {@code cause} */
    private FtpException failed(Throwable cause) {
        end(false);
        if (cause instanceof CancellationException) {
            return new FtpException(426, "Command Aborted.");
        }
        DtpException failure = DtpException.of(cause);
        return new FtpException(failure.replyCode(), failure.getMessage());
    }

    private void end(boolean reusable) {
        ControlSession session = ctx.session();
        cancelTimers();
        if (!reusable) {
            // What was written before a failure is on disk: say so, for the client's restart.
            sendRangeMarker();
        }
        session.activeTransfer(null);
        if (!reusable) {
            session.dataEndpoint(null);
        }
    }

    /** Sends one reply; a record rather than a lambda, as {@link TransferStart}'s {@code ForwardCancel}. */
    private record Reply(CommandContext ctx, FtpReply reply, boolean prompt) implements Runnable {
        @Override
        public void run() {
            if (prompt) {
                ctx.replyPromptly(reply);
            } else {
                ctx.reply(reply);
            }
        }
    }

    private static ScheduledFuture<?> schedule(CommandContext ctx, long periodMillis, Runnable task) {
        return ctx.channel().eventLoop().scheduleAtFixedRate(task, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
    }

    private void cancelTimers() {
        timers.forEach(timer -> timer.cancel(false));
    }

    /**
     * Sends the ranges received since the last 111 marker, if any (empty markers are suppressed).
     *
     * @return true if a marker went out
     */
    private boolean sendRangeMarker() {
        String drained = markers.ranges() == null ? null : markers.ranges().get();
        if (drained != null) {
            ctx.reply(Markers.range(drained));
        }
        return drained != null;
    }
}
