package org.ferry.mover.server.transfer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.data.DataSink;
import org.ferry.mover.data.DataSource;
import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.protocol.Markers;
import org.ferry.mover.protocol.RangeTracker;
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

    /** A transfer without performance or range markers. */
    private static final MarkerPlan NO_MARKERS = new MarkerPlan(0, null, 0, null);

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
                PreliminaryReplyTiming.prompt(ctx, endpoint),
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
        ReceivePlan plan = receivePlan(ctx, sink);
        return run(ctx, plan.markers(), plan.reusing(), false, verifier, plan.starter());
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
        return logged(dtp, progress, run(ctx, markers, false, false, null, () -> dtp.send(requests, progress)));
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
                dtp,
                progress,
                run(ctx, markers, false, false, null, () -> dtp.receive(listener, path, baseOffset, progress)));
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
            boolean prompt,
            Verifier verifier,
            Supplier<CompletableFuture<Long>> starter)
            throws FtpException {
        return RunningTransfer.start(ctx, markers, reusing, prompt, verifier, starter)
                .await();
    }

    private static CompletableFuture<Long> runAsync(
            CommandContext ctx,
            MarkerPlan markers,
            boolean reusing,
            boolean prompt,
            Supplier<CompletableFuture<Long>> starter)
            throws FtpException {
        return RunningTransfer.start(ctx, markers, reusing, prompt, null, starter)
                .whenReplied();
    }

    /**
     * Sends {@code source} to the client like {@link #send}, without blocking the calling thread:
     * for the control channel's event loop, which runs RETR itself ({@link
     * org.ferry.mover.server.pi.CommandHandler#runsOnEventLoop}).
     *
     * @return completes with the bytes sent once 226 is sent, or exceptionally with the
     *     {@link FtpException} whose reply is owed (425, 426, 451, ...)
     * @throws FtpException 425/503 before anything started
     */
    public static CompletableFuture<Long> sendAsync(CommandContext ctx, DataSource source) throws FtpException {
        ControlSession session = ctx.session();
        boolean modeE = session.mode() == TransferMode.EXTENDED_BLOCK;
        DataEndpoint endpoint = endpoint(session, modeE, true);
        long perfMillis = session.sendMarkerSeconds() * 1000L;
        // Without markers (the usual case) nothing counts the bytes for them. This runs for every
        // file of a batch, on the event loop before the data goes: no capturing lambda that is not
        // needed (the C1-only JIT allocates each through a method handle, a runtime call).
        AtomicLong bytes = perfMillis > 0 ? new AtomicLong() : null;
        MarkerPlan markers = bytes == null
                ? NO_MARKERS
                : new MarkerPlan(perfMillis, now -> List.of(Markers.perf(now, bytes.get())), 0, null);
        LongConsumer progress = bytes == null ? null : bytes::set;
        boolean reusing = modeE && session.dataCache().hasSending();
        return runAsync(
                ctx,
                markers,
                reusing,
                PreliminaryReplyTiming.prompt(ctx, endpoint),
                new SendStart(ctx, source, endpoint, modeE, progress));
    }

    /** Starts an event-loop send over the session's data channels (a record, as said in {@link #sendAsync}). */
    private record SendStart(
            CommandContext ctx, DataSource source, DataEndpoint endpoint, boolean modeE, LongConsumer progress)
            implements Supplier<CompletableFuture<Long>> {
        @Override
        public CompletableFuture<Long> get() {
            ControlSession session = ctx.session();
            return ctx.dataChannels()
                    .send(source, endpoint, modeE, session.parallelism(), progress, session.dataCache());
        }
    }

    /**
     * Receives from the client into {@code sink} like {@link #receive(CommandContext, DataSink)},
     * without blocking the calling thread (STOR on the control channel's event loop).
     *
     * @return completes with the bytes received once 226 is sent, or exceptionally with the
     *     {@link FtpException} whose reply is owed
     * @throws FtpException 425/503 before anything started
     */
    public static CompletableFuture<Long> receiveAsync(CommandContext ctx, DataSink sink) throws FtpException {
        ReceivePlan plan = receivePlan(ctx, sink);
        return runAsync(ctx, plan.markers(), plan.reusing(), false, plan.starter());
    }

    /** What a receive needs before it starts: markers, whether cached connections are reused, the start. */
    private record ReceivePlan(MarkerPlan markers, boolean reusing, Supplier<CompletableFuture<Long>> starter) {}

    private static ReceivePlan receivePlan(CommandContext ctx, DataSink sink) throws FtpException {
        ControlSession session = ctx.session();
        boolean modeE = session.mode() == TransferMode.EXTENDED_BLOCK;
        DataEndpoint endpoint = endpoint(session, modeE, false);
        Duration defaultInterval = ctx.config().markerInterval();
        long perfMillis = modeE ? orDefault(session.perfMarkerInterval(), defaultInterval) : 0;
        long restartMillis = modeE ? orDefault(session.restartMarkerInterval(), defaultInterval) : 0;
        // ranges are tracked only when range markers go out (MODE E): the plain sink otherwise
        RangeTracker ranges = restartMillis > 0 ? new RangeTracker() : null;
        DataSink tracking = ranges == null
                ? sink
                : (data, offset) -> {
                    int length = data.remaining();
                    sink.write(data, offset);
                    ranges.add(offset, offset + length);
                };
        AtomicLong bytes = new AtomicLong();
        MarkerPlan markers = new MarkerPlan(
                perfMillis,
                now -> List.of(Markers.perf(now, bytes.get())),
                restartMillis,
                ranges == null ? null : ranges::drain);
        boolean reusing = modeE && session.dataCache().hasReceiving();
        return new ReceivePlan(
                markers,
                reusing,
                () -> ctx.dataChannels().receive(tracking, endpoint, modeE, bytes::set, session.dataCache()));
    }
}
