package org.ferry.mover.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.ferry.mover.protocol.FtpReply;

/**
 * Waits for one transfer command whose data moves between this client and the server (MLSD, RETR,
 * STOR, ERET, ESTO; RFC 959 section 5.2): its final reply and its local data side. Failures of
 * either side are seen at once; when the data side fails first, the server's own final reply is
 * preferred for a short while, as it usually says why (e.g. which identity its DCAU refused).
 */
final class TransferWait {

    /** How long a failed data transfer waits for the server's own final reply before ABOR. */
    private static final long EXPLANATION_WAIT_MILLIS = 2_000;

    private final ControlChannel control;

    /** @param control the session's control channel */
    TransferWait(ControlChannel control) {
        this.control = control;
    }

    /**
     * Sends the transfer command, waits for its final reply and the data side, and checks both.
     *
     * @param moved the data side's byte count, read as a sign of life
     * @return the bytes the data side moved
     * @throws GridFtpReplyException if the server refuses or fails the transfer
     * @throws IOException if the data side fails, or on the inactivity timeout (ABOR sent)
     */
    long finish(String command, CompletableFuture<Long> transfer, AtomicLong moved, TransferListener listener)
            throws IOException {
        FtpReply reply = awaitReply(command, transfer, moved, new MarkerParser(listener));
        SessionControl.checkOk(command, reply);
        return awaitData(command, transfer);
    }

    /**
     * Sends {@code command} and waits for its final reply while data moves. If the data side fails
     * first and the server does not explain, sends ABOR and throws the data side's error.
     *
     * @return the final reply; on a negative one the data side has been cancelled
     * @throws IOException on a broken control channel, a failed data side or the inactivity timeout
     */
    FtpReply awaitReply(String command, CompletableFuture<Long> transfer, AtomicLong moved, MarkerParser markers)
            throws IOException {
        control.send(command);
        return awaitSentReply(command, transfer, moved, markers);
    }

    /**
     * Like {@link #finish} for a command already sent and answered with its preliminary reply
     * ({@link ReceiveStart}).
     *
     * @return the bytes the data side moved
     * @throws GridFtpReplyException if the server fails the transfer
     * @throws IOException if the data side fails, or on the inactivity timeout (ABOR sent)
     */
    long finishSent(String command, CompletableFuture<Long> transfer, AtomicLong moved, TransferListener listener)
            throws IOException {
        FtpReply reply = awaitSentReply(command, transfer, moved, new MarkerParser(listener));
        SessionControl.checkOk(command, reply);
        return awaitData(command, transfer);
    }

    private FtpReply awaitSentReply(
            String command, CompletableFuture<Long> transfer, AtomicLong moved, MarkerParser markers)
            throws IOException {
        long lastMoved = moved.get();
        try (ReplyWaiter waiter = new ReplyWaiter(control.replyTimeout()).watch(control)) {
            waiter.watch(transfer);
            while (true) {
                FtpReply reply = control.poll(0);
                if (reply != null) {
                    waiter.alive();
                    if (!reply.isPreliminary()) {
                        if (!reply.isPositiveCompletion()) {
                            transfer.cancel(false);
                        }
                        return reply;
                    }
                    markers.accept(reply);
                    continue;
                }
                if (transfer.isCompletedExceptionally()) {
                    FtpReply explanation = awaitExplanation(markers);
                    if (explanation != null) {
                        return explanation;
                    }
                    ReplyWaiter.abort(control);
                    awaitData(command, transfer); // throws the data side's error
                }
                if (moved.get() != lastMoved) {
                    lastMoved = moved.get();
                    waiter.alive();
                }
                try {
                    waiter.checkAlive(command + " (" + control.remoteAddress() + ")");
                } catch (SocketTimeoutException e) {
                    ReplyWaiter.abort(control);
                    throw e;
                }
                waiter.pause();
            }
        } catch (IOException | RuntimeException e) {
            transfer.cancel(false);
            throw e;
        }
    }

    /** @return the final reply arriving within {@link #EXPLANATION_WAIT_MILLIS}, or null */
    private FtpReply awaitExplanation(MarkerParser markers) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(EXPLANATION_WAIT_MILLIS);
        while (System.nanoTime() < deadline) {
            FtpReply reply = control.poll(ReplyWaiter.POLL_MILLIS);
            if (reply != null && !reply.isPreliminary()) {
                return reply;
            }
            if (reply != null) {
                markers.accept(reply);
            }
        }
        return null;
    }

    /**
     * Waits for the data side after a positive final reply; it normally has already finished.
     *
     * @return the bytes it moved
     * @throws IOException naming {@code command} if it failed, was cancelled or does not finish
     *     within the reply timeout
     */
    long awaitData(String command, CompletableFuture<Long> transfer) throws IOException {
        try {
            return transfer.get(control.replyTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof IOException io
                    ? new IOException(command + ": data channel failed: " + io.getMessage(), io)
                    : new IOException(command + ": data channel failed", cause);
        } catch (TimeoutException e) {
            transfer.cancel(false);
            throw new SocketTimeoutException(command + ": data connections did not finish after the server's reply");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            transfer.cancel(false);
            throw new InterruptedIOException(command + ": interrupted");
        } catch (CancellationException e) {
            throw new IOException(command + ": data transfer cancelled", e);
        }
    }
}
