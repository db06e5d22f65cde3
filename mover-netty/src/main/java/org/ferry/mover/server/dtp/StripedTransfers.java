package org.ferry.mover.server.dtp;

import io.netty.util.concurrent.ScheduledFuture;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.ControlSession;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.transfer.Markers;
import org.ferry.mover.server.transfer.TransferStart;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one striped transfer for RETR or STOR and sends the control channel replies around it, like
 * {@link org.ferry.mover.server.transfer.TransferRunner} does for the single DTP: {@code 150}, then
 * while receiving one {@code 112} perf marker per stripe (with "Stripe Index" and "Total Stripe
 * Count", GFD.020 "Performance Monitoring") and {@code 111} range markers every marker interval, then
 * {@code 226} or the failure reply of the failing stripe. Blocks the command worker; ABOR cancels the
 * combined future, which aborts every stripe on its DTP. After a success the data endpoint stays:
 * a client that believes the MODE E connections are cached sends no new SPAS/SPOR/PASV/PORT
 * (GFD.020 "Extended Block Mode", data connection reuse), and the stripes then reconnect to the same receiver
 * addresses, or the same listeners accept the sender's new connections (every stripe connection is
 * closed at the end of a transfer, so nothing stale is left on it). After a failure the endpoint
 * is dropped and the next transfer needs a new one.
 */
public final class StripedTransfers {

    private static final Logger LOG = LoggerFactory.getLogger(StripedTransfers.class);

    private StripedTransfers() {}

    /**
     * Sends a file range striped to the receiver addresses.
     *
     * @param ctx the session
     * @param dtp the DTPs
     * @param requests from {@link StripedDtp#plan}
     * @return bytes sent
     * @throws FtpException 426 when aborted, else the failing stripe's reply code
     */
    public static long send(CommandContext ctx, StripedDtp dtp, List<StripeSendRequest> requests) throws FtpException {
        StripedProgress progress = new StripedProgress(requests.size());
        long markerMillis = ctx.session().sendMarkerSeconds() * 1000L;
        return run(ctx, dtp, progress, markerMillis, false, () -> dtp.send(requests, progress));
    }

    /**
     * Receives into a file on every stripe of a SPAS listener.
     *
     * @param ctx the session
     * @param dtp the DTPs
     * @param listener the session's SPAS listener
     * @param path virtual path, created or truncated already
     * @param baseOffset file offset of the transfer's byte 0 (0 for STOR, the old size for APPE)
     * @return bytes received
     * @throws FtpException 426 when aborted, else the failing stripe's reply code
     */
    public static long receive(
            CommandContext ctx, StripedDtp dtp, StripedPassiveListener listener, String path, long baseOffset)
            throws FtpException {
        StripedProgress progress = new StripedProgress(listener.stripes().size());
        return run(
                ctx,
                dtp,
                progress,
                ctx.config().markerInterval().toMillis(),
                true,
                () -> dtp.receive(listener, path, baseOffset, progress));
    }

    private interface Starter {
        CompletableFuture<Long> start();
    }

    private static long run(
            CommandContext ctx,
            StripedDtp dtp,
            StripedProgress progress,
            long markerMillis,
            boolean ranges,
            Starter starter)
            throws FtpException {
        ControlSession session = ctx.session();
        // an ABOR from the moment the client can see 150 stops the transfer, however it races the start
        CompletableFuture<Long> future =
                TransferStart.begin(session, () -> ctx.reply(150, "Beginning transfer."), starter::start);
        ScheduledFuture<?> timer = null;
        boolean succeeded = false;
        if (markerMillis > 0) {
            timer = ctx.channel()
                    .eventLoop()
                    .scheduleAtFixedRate(
                            () -> markers(ctx, progress, ranges), markerMillis, markerMillis, TimeUnit.MILLISECONDS);
        }
        try {
            long bytes = future.get();
            if (timer != null) {
                timer.cancel(false);
                markers(ctx, progress, ranges);
            }
            LOG.info(
                    "striped transfer of {} bytes over {} stripes; DTP totals: {}",
                    bytes,
                    progress.stripes(),
                    dtp.dtps().stream()
                            .map(d -> d.name() + "=" + d.bytesTransferred())
                            .toList());
            ctx.reply(226, "Transfer Complete.");
            succeeded = true;
            return bytes;
        } catch (CancellationException e) {
            throw new FtpException(426, "Command Aborted.");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            future.cancel(true);
            throw new FtpException(426, "Command Aborted.");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof CancellationException) {
                throw new FtpException(426, "Command Aborted.");
            }
            DtpException failure = DtpException.of(cause);
            throw new FtpException(failure.replyCode(), failure.getMessage());
        } finally {
            if (timer != null) {
                timer.cancel(false);
            }
            session.activeTransfer(null);
            if (!succeeded) {
                session.dataEndpoint(null);
            }
        }
    }

    private static void markers(CommandContext ctx, StripedProgress progress, boolean ranges) {
        long now = System.currentTimeMillis();
        for (int i = 0; i < progress.stripes(); i++) {
            ctx.reply(perf(now, i, progress.stripes(), progress.bytes(i)));
        }
        String drained = ranges ? progress.drainRanges() : null;
        if (drained != null) {
            ctx.reply(Markers.range(drained));
        }
    }

    /**
     * A performance marker of one stripe (GFD.020 "Performance Monitoring"; GFD.020 "Performance
     * Monitoring").
     *
     * @param epochMillis time of the measurement
     * @param stripeIndex the stripe
     * @param stripeCount all stripes
     * @param bytes cumulative bytes of that stripe
     * @return {@code 112-Perf Marker} ... {@code 112 End.}
     */
    public static FtpReply perf(long epochMillis, int stripeIndex, int stripeCount, long bytes) {
        String timestamp = (epochMillis / 1000) + "." + ((epochMillis % 1000) / 100);
        return FtpReply.multiline(
                112,
                "Perf Marker",
                List.of(
                        " Timestamp: " + timestamp,
                        " Stripe Index: " + stripeIndex,
                        " Stripe Bytes Transferred: " + bytes,
                        " Total Stripe Count: " + stripeCount),
                "End.");
    }
}
