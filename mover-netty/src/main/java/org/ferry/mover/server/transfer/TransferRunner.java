package org.ferry.mover.server.transfer;

import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.data.DataSink;
import org.ferry.mover.data.DataSource;
import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.protocol.Markers;
import org.ferry.mover.protocol.RangeTracker;
import org.ferry.mover.server.dtp.DtpException;
import org.ferry.mover.server.dtp.StripeSendRequest;
import org.ferry.mover.server.dtp.StripedDtp;
import org.ferry.mover.server.dtp.StripedPassiveListener;
import org.ferry.mover.server.dtp.StripedProgress;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.ControlSession;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.TransferMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs every data transfer of a transfer command (RETR, STOR, APPE, ERET, ESTO, LIST, NLST, MLSD),
 * plain on the PI's own data channels or striped over the data transfer processes, and sends the
 * replies around it (RFC 959 section 4.2): {@code 150 Beginning transfer.} (or {@code 125} when
 * cached MODE E connections are reused), markers while it runs (112 perf markers, one per stripe,
 * GFD.020 "Performance Monitoring"; 111 range markers while receiving, GFD.020 "Restarting"; the
 * last ones when any was sent, and a last 111 with what is on disk after a failure), then
 * {@code 226 Transfer Complete.} or the failure reply. Blocks the calling command worker until the
 * transfer ends or is aborted; the event loop stays free, so ABOR is handled meanwhile (426 here,
 * then 226 from ABOR), however it races the start ({@link TransferStart}).
 *
 * <p>MODE E is directional: the sender connects (GFD.020 "Extended Block Mode", data connection
 * reuse), so sending needs PORT/EPRT and receiving needs PASV/EPSV; the wrong combination gets 503
 * before 150. In stream mode the data endpoint is used once. After a successful MODE E transfer the
 * endpoint stays, and the next transfer in the same direction reuses the connections the session
 * cached (plain) or reconnects to the same stripes (striped); after a failure the endpoint goes and
 * the next transfer needs a new PASV/PORT (else 425).
 */
public final class TransferRunner {

    private static final Logger LOG = LoggerFactory.getLogger(TransferRunner.class);

    private TransferRunner() {}

    /** Work that must succeed before 226 is sent: an SCKS checksum check, unpacking a tar batch. */
    public interface Verifier {
        /**
         * @throws FtpException the reply to send instead of 226
         */
        void verify() throws FtpException;
    }

    /**
     * The markers of one running transfer and how often they go out.
     *
     * @param perfMillis period of the 112 perf markers, 0 for none
     * @param perf the perf markers of this moment (one per stripe), given the epoch milliseconds
     * @param rangeMillis period of the 111 range markers, 0 for none
     * @param ranges the ranges received since the last call (null if none new), or null when the
     *     transfer reports no ranges
     */
    private record MarkerPlan(
            long perfMillis,
            java.util.function.LongFunction<List<FtpReply>> perf,
            long rangeMillis,
            Supplier<String> ranges) {}

    /**
     * Sends {@code source} to the client, with 112 perf markers if the client asked for them
     * ({@code OPTS RETR markers=N;}, GFD.020 "Performance Monitoring").
     *
     * @param ctx the session context
     * @param source what to send
     * @return bytes sent
     * @throws FtpException 425 without a data endpoint, 503 on a wrong MODE E direction, 426 when
     *     aborted or the connection fails, 451/55x on a read failure; 226 has not been sent then
     */
    public static long send(CommandContext ctx, DataSource source) throws FtpException {
        ControlSession session = ctx.session();
        boolean modeE = session.mode() == TransferMode.EXTENDED_BLOCK;
        DataEndpoint endpoint = endpoint(session, modeE, true);
        AtomicLong bytes = new AtomicLong();
        MarkerPlan markers = new MarkerPlan(
                session.sendMarkerSeconds() * 1000L, now -> List.of(Markers.perf(now, bytes.get())), 0, null);
        boolean reusing = modeE && session.dataCache().hasSending();
        return run(
                ctx,
                markers,
                reusing,
                null,
                () -> ctx.dataChannels()
                        .send(source, endpoint, modeE, session.parallelism(), bytes::set, session.dataCache()));
    }

    /**
     * Receives from the client into {@code sink}.
     *
     * @param ctx the session context
     * @param sink where the bytes go
     * @return bytes received
     * @throws FtpException like {@link #send}; 552 when the disk is full
     */
    public static long receive(CommandContext ctx, DataSink sink) throws FtpException {
        return receive(ctx, sink, null);
    }

    /**
     * Receives from the client into {@code sink}, then runs {@code verifier} before answering 226.
     *
     * @param ctx the session context
     * @param sink where the bytes go
     * @param verifier checks the result (e.g. an SCKS checksum); null for none
     * @return bytes received
     * @throws FtpException like {@link #send}; 552 when the disk is full; the verifier's reply
     */
    public static long receive(CommandContext ctx, DataSink sink, Verifier verifier) throws FtpException {
        ControlSession session = ctx.session();
        boolean modeE = session.mode() == TransferMode.EXTENDED_BLOCK;
        DataEndpoint endpoint = endpoint(session, modeE, false);
        RangeTracker ranges = new RangeTracker();
        DataSink tracking = (data, offset) -> {
            int length = data.remaining();
            sink.write(data, offset);
            ranges.add(offset, offset + length);
        };
        Duration defaultInterval = ctx.config().markerInterval();
        long perfMillis = modeE ? orDefault(session.perfMarkerInterval(), defaultInterval) : 0;
        long restartMillis = modeE ? orDefault(session.restartMarkerInterval(), defaultInterval) : 0;
        AtomicLong bytes = new AtomicLong();
        MarkerPlan markers = new MarkerPlan(
                perfMillis,
                now -> List.of(Markers.perf(now, bytes.get())),
                restartMillis,
                restartMillis > 0 ? ranges::drain : null);
        boolean reusing = modeE && session.dataCache().hasReceiving();
        return run(
                ctx,
                markers,
                reusing,
                verifier,
                () -> ctx.dataChannels()
                        .receive(modeE ? tracking : sink, endpoint, modeE, bytes::set, session.dataCache()));
    }

    /**
     * Sends a file range striped to the receivers' addresses (GFD.020 "SPOR"), with one 112 perf
     * marker per stripe if the client asked for markers.
     *
     * @param ctx the session context
     * @param dtp the server's DTPs
     * @param requests from {@link StripedDtp#plan}
     * @return bytes sent
     * @throws FtpException 426 when aborted, else the failing stripe's reply code
     */
    public static long sendStriped(CommandContext ctx, StripedDtp dtp, List<StripeSendRequest> requests)
            throws FtpException {
        StripedProgress progress = new StripedProgress(requests.size());
        MarkerPlan markers = new MarkerPlan(ctx.session().sendMarkerSeconds() * 1000L, stripePerf(progress), 0, null);
        return logged(dtp, progress, run(ctx, markers, false, null, () -> dtp.send(requests, progress)));
    }

    /**
     * Receives into a file on every stripe of a SPAS (or head node PASV) listener, each DTP writing
     * its MODE E blocks at their offsets, with per-stripe perf markers and range markers every
     * marker interval.
     *
     * @param ctx the session context
     * @param dtp the server's DTPs
     * @param listener the session's striped listener
     * @param path virtual path, created or truncated already
     * @param baseOffset file offset of the transfer's byte 0 (0 for STOR, the old size for APPE)
     * @return bytes received
     * @throws FtpException 426 when aborted, else the failing stripe's reply code
     */
    public static long receiveStriped(
            CommandContext ctx, StripedDtp dtp, StripedPassiveListener listener, String path, long baseOffset)
            throws FtpException {
        StripedProgress progress = new StripedProgress(listener.stripes().size());
        long interval = ctx.config().markerInterval().toMillis();
        MarkerPlan markers = new MarkerPlan(interval, stripePerf(progress), interval, progress::drainRanges);
        return logged(
                dtp, progress, run(ctx, markers, false, null, () -> dtp.receive(listener, path, baseOffset, progress)));
    }

    private static java.util.function.LongFunction<List<FtpReply>> stripePerf(StripedProgress progress) {
        return now -> {
            List<FtpReply> perf = new ArrayList<>(progress.stripes());
            for (int i = 0; i < progress.stripes(); i++) {
                perf.add(Markers.perf(now, i, progress.stripes(), progress.bytes(i)));
            }
            return perf;
        };
    }

    private static long logged(StripedDtp dtp, StripedProgress progress, long bytes) {
        LOG.info(
                "striped transfer of {} bytes over {} stripes; DTP totals: {}",
                bytes,
                progress.stripes(),
                dtp.dtps().stream()
                        .map(d -> d.name() + "=" + d.bytesTransferred())
                        .toList());
        return bytes;
    }

    /**
     * Checks, before any file is opened or truncated, that a data endpoint suitable for the
     * direction is set.
     *
     * @param ctx the session context
     * @param sending true for RETR/LIST/NLST/MLSD, false for STOR
     * @throws FtpException 425 without PASV/PORT, 503 for the wrong MODE E direction
     */
    public static void requireEndpoint(CommandContext ctx, boolean sending) throws FtpException {
        ControlSession session = ctx.session();
        endpoint(session, session.mode() == TransferMode.EXTENDED_BLOCK, sending);
    }

    private static DataEndpoint endpoint(ControlSession session, boolean modeE, boolean sending) throws FtpException {
        DataEndpoint endpoint = session.dataEndpoint();
        if (endpoint == null) {
            throw new FtpException(425, "Can't open data connection: send PASV, EPSV, PORT or EPRT first.");
        }
        if (modeE && sending && endpoint instanceof DataEndpoint.Passive) {
            throw new FtpException(503, "Bad sequence of commands: sending in MODE E requires PORT or EPRT.");
        }
        if (modeE && !sending && endpoint instanceof DataEndpoint.Active) {
            throw new FtpException(503, "Bad sequence of commands: receiving in MODE E requires PASV or EPSV.");
        }
        return endpoint;
    }

    private static long orDefault(Duration value, Duration fallback) {
        return (value == null ? fallback : value).toMillis();
    }

    private static long run(
            CommandContext ctx,
            MarkerPlan markers,
            boolean reusing,
            Verifier verifier,
            Supplier<CompletableFuture<Long>> starter)
            throws FtpException {
        ControlSession session = ctx.session();
        CompletableFuture<Long> future;
        try {
            future = TransferStart.begin(
                    session,
                    () -> {
                        if (reusing) {
                            ctx.reply(125, "Beginning transfer; reusing existing data connection.");
                        } else {
                            ctx.reply(150, "Beginning transfer.");
                        }
                    },
                    starter);
        } catch (RuntimeException e) {
            session.dataEndpoint(null);
            throw new FtpException(451, "Data transfer failed to start: " + e);
        }
        List<ScheduledFuture<?>> timers = new ArrayList<>();
        AtomicBoolean perfSent = new AtomicBoolean();
        if (markers.perfMillis() > 0) {
            timers.add(schedule(ctx, markers.perfMillis(), () -> {
                perfSent.set(true);
                markers.perf().apply(System.currentTimeMillis()).forEach(ctx::reply);
            }));
        }
        AtomicBoolean rangeSent = new AtomicBoolean();
        if (markers.rangeMillis() > 0 && markers.ranges() != null) {
            timers.add(schedule(
                    ctx, markers.rangeMillis(), () -> rangeSent.compareAndSet(false, sendRangeMarker(ctx, markers))));
        }
        boolean reusable = false;
        try {
            long transferred = future.get();
            reusable = session.mode() == TransferMode.EXTENDED_BLOCK;
            cancel(timers);
            // Final markers complete what the periodic ones told a client that follows them (the
            // total; the last ranges); a transfer shorter than one period (most small files) ends
            // with 226 alone, as globus's does, which says every byte is there.
            if (perfSent.get()) {
                markers.perf().apply(System.currentTimeMillis()).forEach(ctx::reply);
            }
            if (rangeSent.get()) {
                sendRangeMarker(ctx, markers);
            }
            if (verifier != null) {
                verifier.verify();
            }
            ctx.reply(226, "Transfer Complete.");
            return transferred;
        } catch (CancellationException e) {
            throw new FtpException(426, "Command Aborted.");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            future.cancel(true);
            throw new FtpException(426, "Command Aborted.");
        } catch (ExecutionException e) {
            throw failure(e.getCause());
        } finally {
            cancel(timers);
            if (!reusable) {
                // What was written before a failure is on disk: say so, for the client's restart.
                sendRangeMarker(ctx, markers);
            }
            session.activeTransfer(null);
            if (!reusable) {
                session.dataEndpoint(null);
            }
        }
    }

    private static ScheduledFuture<?> schedule(CommandContext ctx, long periodMillis, Runnable task) {
        return ctx.channel().eventLoop().scheduleAtFixedRate(task, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
    }

    private static void cancel(List<ScheduledFuture<?>> timers) {
        timers.forEach(timer -> timer.cancel(false));
    }

    /**
     * Sends the ranges received since the last 111 marker, if any (empty markers are suppressed).
     *
     * @return true if a marker went out
     */
    private static boolean sendRangeMarker(CommandContext ctx, MarkerPlan markers) {
        String drained = markers.ranges() == null ? null : markers.ranges().get();
        if (drained != null) {
            ctx.reply(Markers.range(drained));
        }
        return drained != null;
    }

    /** The reply for a failed transfer: 426 when aborted, else as {@link DtpException#of} maps the cause. */
    private static FtpException failure(Throwable cause) {
        if (cause instanceof CancellationException) {
            return new FtpException(426, "Command Aborted.");
        }
        DtpException failure = DtpException.of(cause);
        return new FtpException(failure.replyCode(), failure.getMessage());
    }
}
