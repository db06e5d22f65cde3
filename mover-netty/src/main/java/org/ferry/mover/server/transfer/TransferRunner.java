package org.ferry.mover.server.transfer;

import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.net.ConnectException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.FileSystemException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.ferry.mover.data.DataEndpoint;
import org.ferry.mover.data.DataSink;
import org.ferry.mover.data.DataSource;
import org.ferry.mover.server.pi.CommandContext;
import org.ferry.mover.server.pi.ControlSession;
import org.ferry.mover.server.pi.ErrorReplies;
import org.ferry.mover.server.pi.FtpException;
import org.ferry.mover.server.pi.TransferMode;
import org.ferry.mover.storage.StorageException;

/**
 * Runs one data transfer for a transfer command (RETR, STOR, LIST, NLST, MLSD) through the data
 * transfer process and sends the replies around it: {@code 150 Beginning transfer.}, markers while
 * receiving in MODE E (112 perf and 111 range, every {@code markerInterval}; the last ones when any
 * was sent, and a last 111 with what is on disk after a failure), then
 * {@code 226 Transfer Complete.} or a failure (RFC 959 section 4.2; RFC 959 section 4.1, GFD.020; RFC 959 section 4.2, 2.6, 2.7). Blocks the calling command worker until the transfer ends or is
 * aborted; the event loop stays free, so ABOR is handled meanwhile (426 here, then 226 from ABOR).
 *
 * <p>MODE E is directional: the sender connects (GFD.020 "Extended Block Mode", data connection reuse), so sending needs
 * PORT/EPRT and receiving needs PASV/EPSV; the wrong combination gets 503 before 150. In stream
 * mode the data endpoint is used once. In MODE E the connections of a successful transfer stay in
 * the session's {@link org.ferry.mover.data.ModeECache} with the endpoint, and the next transfer in
 * the same direction reuses them, answering {@code 125 Beginning transfer; reusing existing data
 * connection.} (GFD.020 "Extended Block Mode", data connection reuse).
 */
public final class TransferRunner {

    private TransferRunner() {}

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
        long markerMillis = session.sendMarkerSeconds() * 1000L;
        boolean reusing = modeE && session.dataCache().hasSending();
        return run(
                ctx,
                markerMillis,
                null,
                0,
                reusing,
                null,
                progress -> ctx.dataChannels()
                        .send(source, endpoint, modeE, session.parallelism(), progress, session.dataCache()));
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

    /** Work that must succeed before 226 is sent: an SCKS checksum check, unpacking a tar batch. */
    public interface Verifier {
        /**
         * @throws FtpException the reply to send instead of 226
         */
        void verify() throws FtpException;
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
        boolean reusing = modeE && session.dataCache().hasReceiving();
        return run(
                ctx,
                perfMillis,
                restartMillis > 0 ? ranges : null,
                restartMillis,
                reusing,
                verifier,
                progress -> ctx.dataChannels()
                        .receive(modeE ? tracking : sink, endpoint, modeE, progress, session.dataCache()));
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

    /** Starts a transfer given a progress callback (cumulative bytes). */
    private interface Starter {
        CompletableFuture<Long> start(LongConsumer progress);
    }

    private static long orDefault(Duration value, Duration fallback) {
        return (value == null ? fallback : value).toMillis();
    }

    private static long run(
            CommandContext ctx,
            long perfMillis,
            RangeTracker ranges,
            long restartMillis,
            boolean reusing,
            Verifier verifier,
            Starter starter)
            throws FtpException {
        ControlSession session = ctx.session();
        AtomicLong bytes = new AtomicLong();
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
                    () -> starter.start(bytes::set));
        } catch (RuntimeException e) {
            session.dataEndpoint(null);
            throw new FtpException(451, "Data transfer failed to start: " + e);
        }
        List<ScheduledFuture<?>> timers = new ArrayList<>();
        boolean reusable = false;
        AtomicBoolean perfSent = new AtomicBoolean();
        if (perfMillis > 0) {
            timers.add(ctx.channel()
                    .eventLoop()
                    .scheduleAtFixedRate(
                            () -> {
                                perfSent.set(true);
                                ctx.reply(Markers.perf(System.currentTimeMillis(), bytes.get()));
                            },
                            perfMillis,
                            perfMillis,
                            TimeUnit.MILLISECONDS));
        }
        AtomicBoolean rangeSent = new AtomicBoolean();
        if (ranges != null) {
            timers.add(ctx.channel()
                    .eventLoop()
                    .scheduleAtFixedRate(
                            () -> rangeSent.compareAndSet(false, sendRangeMarker(ctx, ranges)),
                            restartMillis,
                            restartMillis,
                            TimeUnit.MILLISECONDS));
        }
        try {
            long transferred = future.get();
            reusable = session.mode() == TransferMode.EXTENDED_BLOCK;
            cancel(timers);
            // Final markers complete what the periodic ones told a client that follows them (the
            // total; the last ranges); a transfer shorter than one period (most small files) ends
            // with 226 alone, as globus's does, which says every byte is there.
            if (perfSent.get()) {
                ctx.reply(Markers.perf(System.currentTimeMillis(), transferred));
            }
            if (rangeSent.get()) {
                sendRangeMarker(ctx, ranges);
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
                sendRangeMarker(ctx, ranges);
            }
            session.activeTransfer(null);
            // A successful MODE E transfer leaves its connections in the session's cache and the
            // endpoint in place: the next transfer without PASV/PORT reuses them (125). Stream mode
            // connections are gone (EOF = close), and after a failure the cached state is suspect,
            // so then the endpoint goes and the next transfer needs a new PASV/PORT (else 425).
            if (!reusable) {
                session.dataEndpoint(null);
            }
        }
    }

    private static void cancel(List<ScheduledFuture<?>> timers) {
        timers.forEach(timer -> timer.cancel(false));
    }

    /**
     * Sends the ranges written since the last 111 marker, if any (empty markers are suppressed).
     *
     * @return true if a marker went out
     */
    private static boolean sendRangeMarker(CommandContext ctx, RangeTracker ranges) {
        String drained = ranges == null ? null : ranges.drain();
        if (drained != null) {
            ctx.reply(Markers.range(drained));
        }
        return drained != null;
    }

    private static FtpException failure(Throwable cause) {
        if (cause instanceof CancellationException) {
            return new FtpException(426, "Command Aborted.");
        }
        if (cause instanceof StorageException se) {
            return new FtpException(ErrorReplies.of(se));
        }
        if (cause instanceof ConnectException) {
            return new FtpException(425, "Can't open data connection: " + cause.getMessage());
        }
        if (cause instanceof FileSystemException fse) {
            return new FtpException(ErrorReplies.of(StorageException.from(fse, "file")));
        }
        if (cause instanceof IOException io
                && !(cause instanceof ClosedChannelException)
                && String.valueOf(io.getMessage())
                        .toLowerCase(java.util.Locale.ROOT)
                        .contains("no space")) {
            return new FtpException(552, "Transfer aborted: no space left on device.");
        }
        if (cause instanceof IOException) {
            return new FtpException(426, "Connection closed; transfer aborted: " + cause.getMessage());
        }
        return new FtpException(451, "Local error in processing: " + cause);
    }
}
