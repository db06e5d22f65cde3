package org.ferry.mover.runner;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.ferry.mover.client.FilePair;
import org.ferry.mover.client.GridFtpReplyException;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.RestartMarkers;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;
import org.ferry.mover.protocol.ByteRange;

/**
 * Moves files between the endpoints of a lane's session pair (third party, MODE E or stream mode),
 * checks each file at the destination (its size, or its checksum when asked) before reporting it
 * arrived, and retries faults with back-off while attempts are left: one file at a time with
 * progress from performance markers ({@link BatchMover} moves batches of small files pipelined
 * and hands what a batch left over to this class one by one). A retried file resumes from the
 * ranges the destination acknowledged in its restart markers (GFD.020 "Restarting": {@code REST
 * a-b,c-d} before the next {@code STOR}), or in stream mode, which has no markers, from the
 * destination's size after the failed attempt ({@code REST n}), so bytes already written are not
 * sent again.
 *
 * <p>When the chunk preserves timestamps, a checked file gets its source's modification time
 * ({@code MFMT}, one pipelined exchange per batch) before it is reported arrived; a refused time is
 * a fault of that file, retried by setting the time again (the checked bytes are not sent again).
 */
final class FileMover {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(FileMover.class);

    private static final String CHECKSUM_ALGORITHM = "MD5";
    private static final long STOP_POLL_MILLIS = 100;

    private final RetryPolicy retries;

    /** @param retries attempts and back-off */
    FileMover(RetryPolicy retries) {
        this.retries = retries;
    }

    /**
     * How a file ended.
     *
     * @param fault null if it arrived, was given up for a permanent fault, or the chunk stopped;
     *     the last fault if the file ran out of attempts on a transient fault (the chunk stops:
     *     the endpoint is probably down)
     */
    record Outcome(MoverFault fault) {
        static final Outcome DONE = new Outcome(null);

        boolean failed() {
            return fault != null;
        }
    }

    /**
     * Moves one file on its own, resuming from {@link FileTransfer#acknowledged} when earlier
     * attempts left ranges, and checks the destination's size after the 226 (or the checksum when
     * asked), so that a file is reported arrived only when the destination holds all of it.
     *
     * @param chunk the chunk (checksum setting)
     * @param listener where results go
     * @param lane the lane's sessions
     * @param file the file
     * @param options MODE E with its parallelism, or stream mode
     * @return {@link Outcome#DONE} when it arrived, failed permanently or the chunk stopped; a failed
     *     outcome when out of attempts on a transient fault
     */
    Outcome move(
            ChunkRequest chunk, ChunkListener listener, SessionPair lane, FileTransfer file, TransferOptions options) {
        return move(chunk, listener, lane, file, options, null);
    }

    /**
     * As {@link #move(ChunkRequest, ChunkListener, SessionPair, FileTransfer, TransferOptions)};
     * with {@code checked}, the file's bytes are at the destination already and only its
     * modification time is set.
     */
    Outcome move(
            ChunkRequest chunk,
            ChunkListener listener,
            SessionPair lane,
            FileTransfer file,
            TransferOptions options,
            Arrival checked) {
        boolean streamMode = options.mode() == TransferOptions.Mode.STREAM;
        List<ByteRange> acknowledged = file.acknowledged(); // what the destination holds from earlier attempts
        Arrival arrived = checked;
        for (int attempt = 1; ; attempt++) {
            if (listener.isStopped()) {
                return Outcome.DONE;
            }
            long resumedBytes = arrived != null
                    ? arrived.bytes()
                    : acknowledged.stream().mapToLong(ByteRange::length).sum();
            AtomicLong counted = new AtomicLong(resumedBytes);
            listener.onBytes(resumedBytes);
            RestartMarkers markers = new RestartMarkers(new TransferListener() {
                @Override
                public void onProgress(long bytesTransferred) {
                    // cumulative per attempt: report the increase since the last marker
                    long now = resumedBytes + bytesTransferred;
                    long before = counted.getAndUpdate(previous -> Math.max(previous, now));
                    listener.onBytes(Math.max(0, now - before));
                }
            });
            markers.addAll(acknowledged);
            AtomicBoolean receiving = new AtomicBoolean();
            try {
                if (arrived == null) {
                    arrived = transfer(chunk, listener, lane, file, options, acknowledged, counted, markers, receiving);
                }
                if (chunk.preserveTimestamp()) {
                    setModifiedTime(lane, file);
                }
                listener.onFileArrived(file, arrived.bytes(), arrived.checksum());
                return Outcome.DONE;
            } catch (IOException | RuntimeException e) {
                listener.onBytes(-counted.getAndSet(0));
                lane.close();
                if (listener.isStopped()) {
                    return Outcome.DONE;
                }
                if (arrived != null) {
                    // the bytes are checked, the time is missing: attempts here set it again; a
                    // later chunk (this runner giving up) sends the file again whole
                    acknowledged = List.of();
                } else if (e instanceof ChecksumMismatchException || e instanceof SizeMismatchException) {
                    acknowledged = List.of(); // wrong bytes at the destination: send it all again
                } else if (streamMode && receiving.get()) {
                    acknowledged = streamPrefix(lane, file, markers.ranges());
                } else {
                    acknowledged = markers.ranges();
                }
                int number = file.attemptsBefore() + attempt;
                String doing = arrived != null
                        ? "Setting the modification time of " + file.destinationPath()
                        : "Moving " + file.sourcePath() + " to " + file.destinationPath();
                MoverFault fault = Faults.classify(e, doing + " (attempt " + number + ")");
                if (fault.code() == FaultCode.NO_CREDENTIALS) {
                    // not the file's fault, and not an attempt: the chunk stops, the file goes back
                    // to the service with what the destination acknowledged, the task INACTIVE
                    return new Outcome(fault);
                }
                boolean retry = !fault.isPermanent() && attempt < retries.maxAttempts();
                listener.onFault(file, fault, number, retry, acknowledged);
                if (!retry) {
                    return fault.isPermanent() ? Outcome.DONE : new Outcome(fault);
                }
                if (!pause(listener, retries.backoffSeconds(attempt) * 1000)) {
                    return Outcome.DONE;
                }
            }
        }
    }

    /**
     * One attempt at a file's bytes: sends it (resuming from {@code acknowledged}) and checks it at
     * the destination.
     *
     * @return the checked file
     * @throws IOException if the transfer or the check fails
     */
    private static Arrival transfer(
            ChunkRequest chunk,
            ChunkListener listener,
            SessionPair lane,
            FileTransfer file,
            TransferOptions options,
            List<ByteRange> acknowledged,
            AtomicLong counted,
            RestartMarkers markers,
            AtomicBoolean receiving)
            throws IOException {
        long bytes;
        if (acknowledged.isEmpty()) {
            bytes = lane.source()
                    .sendTo(
                            file.sourcePath(),
                            progressDestination(lane, options),
                            file.destinationPath(),
                            options,
                            reportingMarkers(listener, file, markers, receiving));
        } else {
            listener.onResume(file, acknowledged);
            bytes = lane.source()
                    .resumeSendTo(
                            file.sourcePath(),
                            progressDestination(lane, options),
                            file.destinationPath(),
                            options,
                            acknowledged,
                            reportingMarkers(listener, file, markers, receiving));
        }
        listener.onBytes(bytes - counted.getAndSet(bytes));
        if (chunk.verifyChecksum()) {
            return new Arrival(bytes, verify(lane, file));
        }
        verifySize(lane, file, bytes);
        return new Arrival(bytes, null);
    }

    /** @return the lane's destination, asked for performance markers every second in MODE E */
    private static GridFtpSession progressDestination(SessionPair lane, TransferOptions options) throws IOException {
        return options.mode() == TransferOptions.Mode.STREAM ? lane.destination() : lane.destinationReportingProgress();
    }

    /**
     * Gives the destination file its source's modification time (MFMT, or SITE UTIME where the
     * server lacks MFMT).
     *
     * @throws GridFtpReplyException if the destination refuses
     * @throws IOException if a connection fails or the source gives no time
     */
    private static void setModifiedTime(SessionPair lane, FileTransfer file) throws IOException {
        GridFtpReplyException refusal = lane.destination()
                .setModifiedTimes(List.of(file.destinationPath()), List.of(sourceModified(lane, file)))[0];
        if (refusal != null) {
            throw refusal;
        }
    }

    /**
     * @return the time the planner read from the source's listing, or else the source's
     *     {@code Modify} fact now (MLST)
     * @throws ModifiedTimeUnknownException if the source gives none
     */
    static Instant sourceModified(SessionPair lane, FileTransfer file) throws IOException {
        if (file.sourceModified() != null) {
            return file.sourceModified();
        }
        Instant modified = lane.source().stat(file.sourcePath()).modified();
        if (modified == null) {
            throw new ModifiedTimeUnknownException("The source lists no modification time (Modify fact) for "
                    + file.sourcePath() + ": it cannot be preserved");
        }
        return modified;
    }

    /**
     * Stream mode has no restart markers, and a stream-mode receiver writes what it gets in order:
     * after a failed attempt that the destination had accepted (125/150: it opened the file for
     * this attempt), the file's size there is the prefix a retry resumes from ({@code REST n}, RFC
     * 3659 section 5). Asked on fresh sessions (the lane's were closed); when the size cannot be
     * had, what was known before the attempt stays.
     */
    private static List<ByteRange> streamPrefix(SessionPair lane, FileTransfer file, List<ByteRange> before) {
        try {
            long there = lane.destination().sizes(List.of(file.destinationPath()))[0];
            long prefix = Math.min(there, file.sizeBytes());
            return prefix <= 0 ? List.of() : List.of(new ByteRange(0, prefix));
        } catch (IOException | RuntimeException e) {
            lane.close();
            return before;
        }
    }

    /** After a 226: the destination must hold the whole file (a MODE E file can be cut short silently). */
    private static void verifySize(SessionPair lane, FileTransfer file, long bytes) throws IOException {
        long there = lane.destination().stat(file.destinationPath()).sizeBytes();
        if (there != bytes) {
            throw new SizeMismatchException(
                    file.destinationPath() + " has " + there + " bytes after the transfer, the source " + bytes);
        }
    }

    /** Passes the destination's restart markers to the listener as they arrive. */
    private static TransferListener reportingMarkers(
            ChunkListener listener, FileTransfer file, RestartMarkers markers, AtomicBoolean receiving) {
        return new TransferListener() {
            @Override
            public void onReceiveStarted() {
                receiving.set(true);
            }

            @Override
            public void onProgress(long bytesTransferred) {
                markers.onProgress(bytesTransferred);
            }

            @Override
            public void onRestartMarker(String ranges) {
                markers.onRestartMarker(ranges);
                listener.onRestartMarker(file, markers.ranges());
            }

            @Override
            public void onFileCompleted(FilePair pair, long bytesTransferred) {
                markers.onFileCompleted(pair, bytesTransferred);
            }
        };
    }

    /** @return {@code MD5:hex} of the file, equal at both ends */
    static String verify(SessionPair lane, FileTransfer file) throws IOException {
        String sourceSum = lane.source().checksum(CHECKSUM_ALGORITHM, file.sourcePath());
        String destinationSum = lane.destination().checksum(CHECKSUM_ALGORITHM, file.destinationPath());
        if (!sourceSum.equalsIgnoreCase(destinationSum)) {
            throw new ChecksumMismatchException(
                    "MD5 of " + file.destinationPath() + " is " + destinationSum + ", source has " + sourceSum);
        }
        return CHECKSUM_ALGORITHM + ":" + sourceSum.toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * Waits out a back-off unless the task stops first.
     *
     * @return false if the task stopped or the thread was interrupted
     */
    static boolean pause(ChunkListener listener, long millis) {
        long end = System.currentTimeMillis() + millis;
        try {
            while (System.currentTimeMillis() < end) {
                if (listener.isStopped()) {
                    return false;
                }
                Thread.sleep(Math.min(STOP_POLL_MILLIS, Math.max(1, end - System.currentTimeMillis())));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        return !listener.isStopped();
    }
}
