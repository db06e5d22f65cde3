package org.ferry.mover.server.pi;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.data.DataSink;
import org.ferry.mover.data.DataSource;
import org.ferry.mover.data.PassiveListener;
import org.ferry.mover.protocol.FtpReply;
import org.ferry.mover.protocol.Markers;
import org.ferry.mover.protocol.RangeTracker;
import org.ferry.mover.server.dtp.LocalDtp;
import org.ferry.mover.server.dtp.PlainReceive;
import org.ferry.mover.server.dtp.PlainSend;
import org.ferry.mover.server.dtp.SessionChannels;
import org.ferry.mover.server.dtp.StripeSendRequest;
import org.ferry.mover.server.dtp.StripedDtp;
import org.ferry.mover.server.dtp.StripedPassiveListener;
import org.ferry.mover.server.dtp.StripedProgress;
import org.ferry.mover.server.dtp.TransferProgress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the data transfers of one session's transfer commands (RETR, STOR, APPE, ERET, ESTO, LIST,
 * NLST, MLSD) through the data transfer processes, and sends the replies around them (RFC 959
 * section 4.2): {@code 150 Beginning transfer.} (or {@code 125} when cached MODE E connections are
 * reused), markers while it runs (112 perf markers, one per stripe, GFD.020 "Performance
 * Monitoring"; 111 range markers while receiving, GFD.020 "Restarting"; the last ones when any was
 * sent, and a last 111 with what is on disk after a failure), then {@code 226 Transfer Complete.} or
 * the failure reply. A plain transfer is the one-stripe case: the whole of it runs on the DTP in the
 * server's process ({@link LocalDtp}, homed on the session's event loop); a striped one runs one
 * stripe per DTP ({@link StripedDtp}). The blocking methods hold the calling command worker until
 * the transfer ends or is aborted; the event loop stays free, so ABOR is handled meanwhile (426
 * here, then 226 from ABOR), however it races the start ({@link TransferStart}). The {@code Async}
 * ones run on the control channel's event loop and return at once.
 *
 * <p>MODE E is directional: the sender connects (GFD.020 "Extended Block Mode", data connection
 * reuse), so sending needs PORT/EPRT and receiving needs PASV/EPSV; the wrong combination gets 503
 * before 150. In stream mode the data endpoint is used once. After a successful MODE E transfer the
 * endpoint stays, and the next transfer in the same direction reuses the connections the session
 * cached (plain) or reconnects to the same stripes (striped); after a failure the endpoint goes and
 * the next transfer needs a new PASV/PORT (else 425).
 *
 * <p>One per session ({@link CommandContext#transfers}); used by the session's command worker or
 * its event loop, one command at a time.
 */
public final class TransferRunner {

    /** A transfer without performance or range markers. */
    private static final MarkerPlan NO_MARKERS = new MarkerPlan(0, null, 0, null);

    private static final Logger LOG = LoggerFactory.getLogger(TransferRunner.class);

    private final CommandContext ctx;
    private final ControlSession session;
    /** The server's own DTP, homed on this session's event loop. */
    private final LocalDtp local;

    /**
     * @param ctx the session's context (replies, settings, control channel)
     * @param local the DTP in the server's process, already homed on the session's event loop
     */
    TransferRunner(CommandContext ctx, LocalDtp local) {
        this.ctx = ctx;
        this.session = ctx.session();
        this.local = local;
    }

    /** Work that must succeed before 226 is sent: an SCKS checksum check, unpacking a tar batch. */
    public interface Verifier {
        /**
         * @throws FtpException the reply to send instead of 226
         */
        void verify() throws FtpException;
    }

    /**
     * Opens this session's passive data listener (PASV/EPSV) on the server's own DTP, with the
     * session's socket buffers; its connections are accepted on the session's event loop.
     *
     * @param announce the local address to bind and announce
     * @return the bound listener
     * @throws IOException if binding fails
     */
    public PassiveListener listen(InetAddress announce) throws IOException {
        return local.listen(announce, channels()).join(); // bound at once: never blocks
    }

    /**
     * Sends {@code source} to the client, with 112 perf markers if the client asked for them
     * ({@code OPTS RETR markers=N;}, GFD.020 "Performance Monitoring").
     *
     * @param source what to send
     * @return bytes sent
     * @throws FtpException 425 without a data endpoint, 503 on a wrong MODE E direction, 426 when
     *     aborted or the connection fails, 451/55x on a read failure; 226 has not been sent then
     */
    public long send(DataSource source) throws FtpException {
        return startSend(source).await();
    }

    /**
     * Sends {@code source} to the client like {@link #send}, without blocking the calling thread:
     * for the control channel's event loop, which runs RETR itself ({@link
     * CommandHandler#runsOnEventLoop}).
     *
     * @return completes with the bytes sent once 226 is sent, or exceptionally with the
     *     {@link FtpException} whose reply is owed (425, 426, 451, ...)
     * @throws FtpException 425/503 before anything started
     */
    public CompletableFuture<Long> sendAsync(DataSource source) throws FtpException {
        return startSend(source).whenReplied();
    }

    private RunningTransfer startSend(DataSource source) throws FtpException {
        boolean modeE = session.mode() == TransferMode.EXTENDED_BLOCK;
        DataEndpoint endpoint = endpoint(modeE, true);
        long perfMillis = session.sendMarkerSeconds() * 1000L;
        // Without markers (the usual case) nothing counts the bytes for them. This runs for every
        // file of a batch, on the event loop before the data goes: no capturing lambda that is not
        // needed (the C1-only JIT allocates each through a method handle, a runtime call).
        AtomicLong bytes = perfMillis > 0 ? new AtomicLong() : null;
        MarkerPlan markers = bytes == null
                ? NO_MARKERS
                : new MarkerPlan(perfMillis, now -> List.of(Markers.perf(now, bytes.get())), 0, null);
        TransferProgress progress = bytes == null ? null : bytes::set;
        boolean reusing = modeE && session.dataCache().hasSending();
        return RunningTransfer.start(
                ctx,
                markers,
                reusing,
                PreliminaryReplyTiming.prompt(ctx, endpoint),
                null,
                new SendStart(this, source, endpoint, modeE, progress));
    }

    /**
     * Starts a plain send on the server's own DTP. A record rather than a lambda, as said in
     * {@link #startSend}; the session's settings are read when it runs, inside the transfer's start,
     * so that a failure to set up DCAU answers 451.
     */
    private record SendStart(
            TransferRunner runner, DataSource source, DataEndpoint endpoint, boolean modeE, TransferProgress progress)
            implements Supplier<CompletableFuture<Long>> {
        @Override
        public CompletableFuture<Long> get() {
            PlainSend send = new PlainSend(source, endpoint, modeE, runner.session.parallelism(), runner.channels());
            return runner.local.send(send, progress);
        }
    }

    /**
     * Receives from the client into {@code sink}.
     *
     * @param sink where the bytes go
     * @return bytes received
     * @throws FtpException like {@link #send}; 552 when the disk is full
     */
    public long receive(DataSink sink) throws FtpException {
        return receive(sink, null);
    }

    /**
     * Receives from the client into {@code sink}, then runs {@code verifier} before answering 226.
     *
     * @param sink where the bytes go
     * @param verifier checks the result (e.g. an SCKS checksum); null for none
     * @return bytes received
     * @throws FtpException like {@link #send}; 552 when the disk is full; the verifier's reply
     */
    public long receive(DataSink sink, Verifier verifier) throws FtpException {
        ReceivePlan plan = receivePlan(sink);
        return RunningTransfer.start(ctx, plan.markers(), plan.reusing(), false, verifier, plan.start())
                .await();
    }

    /**
     * Receives from the client into {@code sink} like {@link #receive(DataSink)}, without blocking
     * the calling thread (STOR on the control channel's event loop).
     *
     * @return completes with the bytes received once 226 is sent, or exceptionally with the
     *     {@link FtpException} whose reply is owed
     * @throws FtpException 425/503 before anything started
     */
    public CompletableFuture<Long> receiveAsync(DataSink sink) throws FtpException {
        return receiveAsync(sink, null);
    }

    /**
     * Like {@link #receiveAsync(DataSink)}, with {@code verifier} run before 226 on the event loop
     * that ends the transfer: for quick work only (a stat, not a file read).
     *
     * @param sink where the bytes go
     * @param verifier checks or records the result; null for none
     * @return completes with the bytes received once 226 is sent, or exceptionally with the
     *     {@link FtpException} whose reply is owed
     * @throws FtpException 425/503 before anything started
     */
    public CompletableFuture<Long> receiveAsync(DataSink sink, Verifier verifier) throws FtpException {
        ReceivePlan plan = receivePlan(sink);
        return RunningTransfer.start(ctx, plan.markers(), plan.reusing(), false, verifier, plan.start())
                .whenReplied();
    }

    /** What a receive needs before it starts: markers, whether cached connections are reused, the start. */
    private record ReceivePlan(MarkerPlan markers, boolean reusing, Supplier<CompletableFuture<Long>> start) {}

    private ReceivePlan receivePlan(DataSink sink) throws FtpException {
        boolean modeE = session.mode() == TransferMode.EXTENDED_BLOCK;
        DataEndpoint endpoint = endpoint(modeE, false);
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
                () -> local.receive(new PlainReceive(tracking, endpoint, modeE, channels()), bytes::set));
    }

    /**
     * Sends a file range striped to the receivers' addresses (GFD.020 "SPOR"), with one 112 perf
     * marker per stripe if the client asked for markers.
     *
     * @param dtp the server's DTPs
     * @param requests from {@link StripedDtp#plan}
     * @return bytes sent
     * @throws FtpException 426 when aborted, else the failing stripe's reply code
     */
    public long sendStriped(StripedDtp dtp, List<StripeSendRequest> requests) throws FtpException {
        StripedProgress progress = new StripedProgress(requests.size());
        MarkerPlan markers = new MarkerPlan(session.sendMarkerSeconds() * 1000L, stripePerf(progress), 0, null);
        long bytes = RunningTransfer.start(ctx, markers, false, false, null, () -> dtp.send(requests, progress))
                .await();
        return logged(dtp, progress, bytes);
    }

    /**
     * Receives into a file on every stripe of a SPAS (or head node PASV) listener, each DTP writing
     * its MODE E blocks at their offsets, with per-stripe perf markers and range markers every
     * marker interval.
     *
     * @param dtp the server's DTPs
     * @param listener the session's striped listener
     * @param path virtual path, created or truncated already
     * @param baseOffset file offset of the transfer's byte 0 (0 for STOR, the old size for APPE)
     * @return bytes received
     * @throws FtpException 426 when aborted, else the failing stripe's reply code
     */
    public long receiveStriped(StripedDtp dtp, StripedPassiveListener listener, String path, long baseOffset)
            throws FtpException {
        StripedProgress progress = new StripedProgress(listener.stripes().size());
        long interval = ctx.config().markerInterval().toMillis();
        MarkerPlan markers = new MarkerPlan(interval, stripePerf(progress), interval, progress::drainRanges);
        long bytes = RunningTransfer.start(
                        ctx, markers, false, false, null, () -> dtp.receive(listener, path, baseOffset, progress))
                .await();
        return logged(dtp, progress, bytes);
    }

    private static LongFunction<List<FtpReply>> stripePerf(StripedProgress progress) {
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
     * @param sending true for RETR/LIST/NLST/MLSD, false for STOR
     * @throws FtpException 425 without PASV/PORT, 503 for the wrong MODE E direction
     */
    public void requireEndpoint(boolean sending) throws FtpException {
        endpoint(session.mode() == TransferMode.EXTENDED_BLOCK, sending);
    }

    private DataEndpoint endpoint(boolean modeE, boolean sending) throws FtpException {
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

    /**
     * @return the session's buffers, security and kept connections as they are now
     * @throws IllegalStateException if DCAU A/S is in force but TLS cannot be set up
     */
    private SessionChannels channels() {
        return new SessionChannels(
                session.sendBufferBytes(),
                session.receiveBufferBytes(),
                session.dataProtection().security(session),
                session.dataCache());
    }

    private static long orDefault(Duration value, Duration fallback) {
        return (value == null ? fallback : value).toMillis();
    }
}
