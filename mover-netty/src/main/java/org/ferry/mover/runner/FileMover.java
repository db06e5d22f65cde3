package org.ferry.mover.runner;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.ferry.mover.client.FilePair;
import org.ferry.mover.client.GridFtpReplyException;
import org.ferry.mover.client.RestartMarkers;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;
import org.ferry.mover.protocol.ByteRange;

/**
 * Moves files between the endpoints of a lane's session pair (third party, MODE E or stream mode),
 * checks each file at the destination (its size, or its checksum when asked) before reporting it
 * arrived, and retries faults with back-off while attempts are left: one file at a time with
 * progress from performance markers, or a batch of small files pipelined
 * ({@link org.ferry.mover.client.GridFtpSession#sendAll}, as tar streams between Ferry servers),
 * checked after the batch with one pipelined {@code SIZE} exchange. A retried file resumes from the
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
     * What the destination holds of a file whose bytes were checked there (size or checksum).
     *
     * @param bytes the file's size
     * @param checksum {@code MD5:hex} when checksums were compared, else null
     */
    private record Arrival(long bytes, String checksum) {}

    /**
     * As {@link #move(ChunkRequest, ChunkListener, SessionPair, FileTransfer, TransferOptions)};
     * with {@code checked}, the file's bytes are at the destination already and only its
     * modification time is set.
     */
    private Outcome move(
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
                            lane.destination(),
                            file.destinationPath(),
                            options,
                            reportingMarkers(listener, file, markers, receiving));
        } else {
            listener.onResume(file, acknowledged);
            bytes = lane.source()
                    .resumeSendTo(
                            file.sourcePath(),
                            lane.destination(),
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
    private static Instant sourceModified(SessionPair lane, FileTransfer file) throws IOException {
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

    /**
     * Moves a batch of small files in one pipelined exchange ({@code pipelining} transfer commands in
     * flight), then checks them at the destination: their sizes with one pipelined {@code SIZE}
     * exchange (a 226 alone is not proof: a file can be cut short silently), or their checksums when
     * the chunk verifies them. Only then are they reported arrived. Files the batch did not finish,
     * and files that fail the check, go through {@link #move} one by one, so each fault is reported
     * against its file and retried as usual.
     *
     * @param chunk the chunk (checksum setting)
     * @param listener where results go
     * @param lane the lane's sessions
     * @param batch the files, each small enough that progress at its end is progress enough
     * @param options MODE E with its parallelism
     * @param pipelining transfer commands in flight (1..1000)
     * @return {@link Outcome#DONE}, or the first failed outcome of a file out of attempts on a
     *     transient fault
     */
    Outcome moveBatch(
            ChunkRequest chunk,
            ChunkListener listener,
            SessionPair lane,
            List<FileTransfer> batch,
            TransferOptions options,
            int pipelining) {
        // sendAll reports completed files on this thread: plain collections will do
        Map<FilePair, FileTransfer> byPair = new LinkedHashMap<>();
        for (FileTransfer file : batch) {
            byPair.put(new FilePair(file.sourcePath(), file.destinationPath(), file.sizeBytes()), file);
        }
        Set<FileTransfer> left = new LinkedHashSet<>(batch); // in batch order, for the one-by-one retries
        Map<FileTransfer, Long> completed = new LinkedHashMap<>();
        if (!listener.isStopped()) {
            try {
                lane.source()
                        .sendAll(
                                new ArrayList<>(byPair.keySet()),
                                lane.destination(),
                                options,
                                Math.max(1, Math.min(1000, pipelining)),
                                new TransferListener() {
                                    @Override
                                    public void onFileCompleted(FilePair pair, long bytesTransferred) {
                                        FileTransfer done = byPair.get(pair);
                                        if (done != null && left.remove(done)) {
                                            listener.onBytes(bytesTransferred);
                                            completed.put(done, bytesTransferred);
                                        }
                                    }
                                });
            } catch (IOException | RuntimeException e) {
                lane.close(); // the sessions may be out of step; the files left retry one by one
                if (listener.isStopped()) {
                    return Outcome.DONE;
                }
                MoverFault fault = Faults.classify(e, "Moving a batch of " + batch.size() + " files");
                if (fault.code() == FaultCode.NO_CREDENTIALS) {
                    return new Outcome(fault); // no file moves until the endpoint is activated again
                }
                // not counted against a file: each file left is tried on its own next and reports its own fault
                log.info(
                        "A batch of {} files failed ({} left to move one by one): {}",
                        batch.size(),
                        left.size(),
                        fault.description());
            }
        }
        Map<FileTransfer, Arrival> untimed = new LinkedHashMap<>(); // checked, only the time left to set
        if (!completed.isEmpty() && !listener.isStopped()) {
            Map<FileTransfer, Arrival> checked = new LinkedHashMap<>();
            if (chunk.verifyChecksum()) {
                verifyChecksums(listener, lane, completed, left, checked);
            } else {
                verifySizes(listener, lane, completed, left, checked);
            }
            if (chunk.preserveTimestamp()) {
                setModifiedTimes(listener, lane, checked, left, untimed);
            } else {
                checked.forEach((file, arrival) -> listener.onFileArrived(file, arrival.bytes(), arrival.checksum()));
            }
        }
        for (FileTransfer file : left) {
            Outcome outcome = move(chunk, listener, lane, file, options, untimed.get(file));
            if (outcome.failed()) {
                return outcome;
            }
        }
        return Outcome.DONE;
    }

    /**
     * One pipelined MFMT exchange for the batch's checked files: those whose time was set arrive. A
     * refusal is a fault of its file: permanent ones end the file, the others go back to {@code
     * left} (into {@code untimed}) to have the time set on their own, without sending the bytes
     * again. When the exchange itself fails, every file goes back so, without a fault: a file is
     * never reported arrived without its time.
     */
    private static void setModifiedTimes(
            ChunkListener listener,
            SessionPair lane,
            Map<FileTransfer, Arrival> checked,
            Set<FileTransfer> left,
            Map<FileTransfer, Arrival> untimed) {
        if (checked.isEmpty()) {
            return;
        }
        List<FileTransfer> files = new ArrayList<>(checked.keySet());
        GridFtpReplyException[] refusals;
        try {
            List<Instant> times = new ArrayList<>(files.size());
            for (FileTransfer file : files) {
                times.add(sourceModified(lane, file));
            }
            refusals = lane.destination()
                    .setModifiedTimes(
                            files.stream().map(FileTransfer::destinationPath).toList(), times);
        } catch (IOException | RuntimeException e) {
            lane.close();
            log.info(
                    "Setting the modification times of {} files after a batch failed (setting them one by one): {}",
                    files.size(),
                    Faults.classify(e, "MFMT").description());
            for (FileTransfer file : files) {
                listener.onBytes(-checked.get(file).bytes());
                left.add(file);
                untimed.put(file, checked.get(file));
            }
            return;
        }
        for (int i = 0; i < files.size(); i++) {
            FileTransfer file = files.get(i);
            Arrival arrival = checked.get(file);
            if (refusals[i] == null) {
                listener.onFileArrived(file, arrival.bytes(), arrival.checksum());
                continue;
            }
            listener.onBytes(-arrival.bytes());
            MoverFault fault = Faults.classify(
                    refusals[i],
                    "Setting the modification time of " + file.destinationPath() + " after a batch (attempt "
                            + (file.attemptsBefore() + 1) + ")");
            listener.onFault(file, fault, file.attemptsBefore() + 1, !fault.isPermanent(), List.of());
            if (!fault.isPermanent()) {
                FileTransfer again = file.afterFailedAttempt();
                left.add(again);
                untimed.put(again, arrival);
            }
        }
    }

    /**
     * The batch's completed files whose MD5 matches go to {@code checked}; the others go back to
     * {@code left}.
     */
    private static void verifyChecksums(
            ChunkListener listener,
            SessionPair lane,
            Map<FileTransfer, Long> completed,
            Set<FileTransfer> left,
            Map<FileTransfer, Arrival> checked) {
        for (Map.Entry<FileTransfer, Long> entry : completed.entrySet()) {
            FileTransfer file = entry.getKey();
            try {
                checked.put(file, new Arrival(entry.getValue(), verify(lane, file)));
            } catch (IOException | RuntimeException e) {
                listener.onBytes(-entry.getValue());
                lane.close();
                MoverFault fault = Faults.classify(
                        e, "Verifying " + file.destinationPath() + " after a batch (moving it again on its own)");
                listener.onFault(file, fault, file.attemptsBefore() + 1, true, List.of());
                left.add(file.afterFailedAttempt());
            }
        }
    }

    /**
     * One pipelined SIZE exchange for the batch's completed files: those the destination holds
     * whole go to {@code checked}; the others (short, missing) are faults and go back to {@code
     * left}, to be sent again whole. When the exchange itself fails, every completed file goes back
     * (it is sent again on its own and checked then): a file is never counted without the check.
     */
    private static void verifySizes(
            ChunkListener listener,
            SessionPair lane,
            Map<FileTransfer, Long> completed,
            Set<FileTransfer> left,
            Map<FileTransfer, Arrival> checked) {
        List<FileTransfer> files = new ArrayList<>(completed.keySet());
        long[] there;
        try {
            there = lane.destination()
                    .sizes(files.stream().map(FileTransfer::destinationPath).toList());
        } catch (IOException | RuntimeException e) {
            lane.close();
            log.info(
                    "Checking the sizes of {} files after a batch failed (moving them again one by one): {}",
                    files.size(),
                    Faults.classify(e, "SIZE").description());
            for (FileTransfer file : files) {
                listener.onBytes(-completed.get(file));
                left.add(file);
            }
            return;
        }
        for (int i = 0; i < files.size(); i++) {
            FileTransfer file = files.get(i);
            long bytes = completed.get(file);
            if (there[i] == bytes) {
                checked.put(file, new Arrival(bytes, null));
                continue;
            }
            listener.onBytes(-bytes);
            MoverFault fault = Faults.classify(
                    new SizeMismatchException(file.destinationPath() + " has "
                            + (there[i] < 0 ? "no file" : there[i] + " bytes") + " after a batch, the source " + bytes),
                    "Checking " + file.destinationPath() + " after a batch (moving it again on its own)");
            listener.onFault(file, fault, file.attemptsBefore() + 1, true, List.of());
            left.add(file.afterFailedAttempt());
        }
    }

    /** @return {@code MD5:hex} of the file, equal at both ends */
    private static String verify(SessionPair lane, FileTransfer file) throws IOException {
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
