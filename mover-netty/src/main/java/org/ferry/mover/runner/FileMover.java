package org.ferry.mover.runner;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.ferry.mover.client.FilePair;
import org.ferry.mover.client.GridFtpReplyException;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.RestartMarkers;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;
import org.ferry.mover.protocol.ByteRange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * <p>A file moved on its own is written under a temporary name beside its final one ({@link
 * #partPath}: {@code .name.ferry-part}) and renamed ({@code RNFR}/{@code RNTO}, RFC 959 section
 * 4.1.3) only once its size or checksum is checked, so that a file cut short by a full disk, a
 * broken connection or a crash never stands under its final name: not for a later task at any sync
 * level, not for a user listing the directory. A resumed attempt first checks that the temporary
 * file still holds what the restart markers say (else it sends the whole file again).
 *
 * <p>After its bytes are checked, the source is asked for its size and modification time again
 * (MLST): a source that differs from the file's plan changed while (or since) it was read, and the
 * destination may hold bytes of neither version; the file is a {@code FILE_SIZE_CHANGED} fault,
 * planned again with the new size and time, and sent again whole under its temporary name
 * ({@link SourceChangedException}), within the same bounded attempts as any transient fault.
 *
 * <p>When the chunk preserves timestamps, a checked file gets its source's modification time
 * ({@code MFMT}, one pipelined exchange per batch) before it is reported arrived; a refused time is
 * a fault of that file, retried by setting the time again (the checked bytes are not sent again).
 *
 * <p>A multicast chunk ({@link ChunkRequest#isMulticast}) sends each file once to the first
 * destination with the chunk's multicast disk stack set ({@link SessionPair#multicastStack}), which
 * forwards it to the further destinations; the file is then checked (size, and checksum when asked)
 * and renamed at every destination before it is reported arrived. A multicast stack takes no
 * {@code REST}, so an attempt sends the whole file (the server already restarts a failed branch
 * from its own copy; an attempt here is what the server could not do), but a retry sends it only
 * to the destinations that lack it ({@link MulticastCopies}): from the first destination's checked
 * copy when it holds the file, else from the source with a tree of those that lack it. What each
 * destination holds of the file goes to {@link ChunkListener#onDestinationProgress}. A file given
 * up for good leaves no temporary file at any destination.
 */
final class FileMover {

    private static final Logger log = LoggerFactory.getLogger(FileMover.class);

    private static final long STOP_POLL_MILLIS = 100;
    /** Suffix of the temporary name a file is written under until it is checked. */
    static final String PART_SUFFIX = ".ferry-part";
    /** Longest file name that gets a temporary name (NAME_MAX 255 less the dot and the suffix). */
    private static final int PART_NAME_LIMIT = 255 - 1 - PART_SUFFIX.length();

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
            FileTransfer planned,
            TransferOptions options,
            Arrival checked) {
        FileTransfer file = planned; // planned again when the source changes while it is read
        boolean streamMode = options.mode() == TransferOptions.Mode.STREAM;
        List<ByteRange> acknowledged = file.acknowledged(); // what the destination holds from earlier attempts
        Arrival arrived = checked;
        boolean placed = checked != null; // a batch's checked files stand under their final names
        String writing = partPath(file.destinationPath());
        MulticastCopies copies = copies(chunk, file);
        for (int attempt = 1; ; attempt++) {
            if (listener.isStopped()) {
                return Outcome.DONE;
            }
            if (chunk.isMulticast()) {
                acknowledged = List.of(); // a multicast stack takes no REST: the whole file, each attempt
            }
            if (arrived == null && !acknowledged.isEmpty() && !holds(lane, writing, acknowledged)) {
                acknowledged = List.of(); // the temporary file is gone or short: send it all again
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
                if (arrived == null && copies != null && (attempt > 1 || file.attemptsBefore() > 0)) {
                    // a retry: only the destinations that lack the file get it again
                    copies.ask(chunk, lane, file, writing);
                    copies.report(listener, file);
                    if (copies.firstHolds()) {
                        listener.onBytes(file.sizeBytes() - counted.getAndSet(file.sizeBytes()));
                    }
                }
                if (arrived == null) {
                    arrived = transfer(
                            chunk,
                            listener,
                            lane,
                            file,
                            writing,
                            options,
                            acknowledged,
                            counted,
                            markers,
                            receiving,
                            copies);
                }
                if (!placed) {
                    place(lane, writing, file.destinationPath(), arrived.bytes());
                    placed = true;
                }
                if (chunk.preserveTimestamp()) {
                    setModifiedTime(lane, file);
                }
                listener.onFileArrived(file, arrived.bytes(), arrived.checksum());
                return Outcome.DONE;
            } catch (IOException | RuntimeException e) {
                listener.onBytes(-counted.getAndSet(0));
                lane.close();
                if (copies != null && isMulticastFailure(e)) {
                    copies.firstComplete(); // the first destination holds the whole file
                }
                if (listener.isStopped()) {
                    return Outcome.DONE;
                }
                if (arrived != null) {
                    // the bytes are checked, the time is missing: attempts here set it again; a
                    // later chunk (this runner giving up) sends the file again whole
                    acknowledged = List.of();
                } else if (e instanceof SourceChangedException changed) {
                    // what arrived may match neither version: the next attempt sends the new one
                    // whole and checks it against the new size and time
                    file = changed.replan(file);
                    acknowledged = List.of();
                    copies = copies(chunk, file); // no destination holds the new version
                } else if (e instanceof ChecksumMismatchException || e instanceof SizeMismatchException) {
                    acknowledged = List.of(); // wrong bytes at the destination: send it all again
                    copies = copies(chunk, file); // and ask every destination again, trusting none
                } else if (streamMode && receiving.get()) {
                    acknowledged = streamPrefix(lane, file, writing, markers.ranges());
                } else {
                    acknowledged = markers.ranges();
                }
                int number = file.attemptsBefore() + attempt;
                String doing = arrived != null && !placed
                        ? "Renaming " + writing + " to " + file.destinationPath()
                        : arrived != null
                                ? "Setting the modification time of " + file.destinationPath()
                                : "Moving " + file.sourcePath() + " to " + file.destinationPath();
                MoverFault fault = Faults.classify(e, doing + " (attempt " + number + ")");
                if (fault.code() == FaultCode.NO_CREDENTIALS) {
                    // not the file's fault, and not an attempt: the chunk stops, the file goes back
                    // to the service with what the destination acknowledged, the task INACTIVE
                    return new Outcome(fault);
                }
                if (fault.code().waitsForSpace()) {
                    // seconds will not free space: the chunk stops, the service backs the task off
                    // (or fails it with fail_on_quota_errors); the file resumes from its markers
                    listener.onFault(file, fault, number, false, acknowledged);
                    return new Outcome(fault);
                }
                boolean retry = !fault.isPermanent() && attempt < retries.maxAttempts();
                if (!retry && fault.code() == FaultCode.VERIFY_CHECKSUM) {
                    // differing again and again: the path corrupts what it carries; the file fails
                    // (naming both values) instead of going round until the deadline
                    fault = fault.givenUp();
                }
                if (!retry && fault.isPermanent()) {
                    // before the fault is reported: the service may end the task on it, and a task
                    // that says FAILED leaves nothing of the file behind
                    removeQuietly(lane, writing, file.destinationPath()); // nothing will resume it
                    if (isChecksumFault(fault) && writing.equals(file.destinationPath())) {
                        removeUnchecked(lane, writing); // written in place (a long name): not to stand as done
                    }
                }
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

    /** @return the multicast file's destinations, or null for a chunk with one destination */
    private static MulticastCopies copies(ChunkRequest chunk, FileTransfer file) {
        return chunk.isMulticast()
                ? new MulticastCopies(1 + chunk.additionalDestinations().size(), file.sizeBytes())
                : null;
    }

    /**
     * @return whether the first destination answered {@code 451 Multicast: ...}: it holds the whole
     *     file and some destination below it does not ({@code MulticastStage})
     */
    private static boolean isMulticastFailure(Exception e) {
        return e instanceof GridFtpReplyException reply
                && reply.replyCode() == 451
                && String.valueOf(reply.getMessage()).contains("Multicast:");
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
            String writing,
            TransferOptions options,
            List<ByteRange> acknowledged,
            AtomicLong counted,
            RestartMarkers markers,
            AtomicBoolean receiving,
            MulticastCopies copies)
            throws IOException {
        long bytes;
        if (copies != null) {
            bytes = sendMulticast(chunk, listener, lane, file, writing, options, markers, receiving, copies);
        } else if (acknowledged.isEmpty()) {
            bytes = lane.source()
                    .sendTo(
                            file.sourcePath(),
                            progressDestination(lane, options),
                            writing,
                            options,
                            reportingMarkers(listener, file, markers, receiving));
        } else {
            listener.onResume(file, acknowledged);
            bytes = lane.source()
                    .resumeSendTo(
                            file.sourcePath(),
                            progressDestination(lane, options),
                            writing,
                            options,
                            acknowledged,
                            reportingMarkers(listener, file, markers, receiving));
        }
        listener.onBytes(bytes - counted.getAndSet(bytes));
        Arrival arrival;
        try {
            if (checksChecksum(chunk, file)) {
                arrival = new Arrival(bytes, verify(chunk, lane, file, writing));
            } else {
                verifySize(lane, writing, bytes);
                arrival = new Arrival(bytes, null);
            }
            verifyAdditional(chunk, lane, file, writing, arrival);
        } catch (ChecksumMismatchException | SizeMismatchException e) {
            requireUnchanged(lane, file, e); // a source that changed meanwhile explains the mismatch
            throw e;
        }
        requireUnchanged(lane, file, null);
        if (copies != null) {
            copies.allChecked();
            copies.report(listener, file);
        }
        return arrival;
    }

    /**
     * A multicast file to the destinations that lack it ({@link MulticastCopies#missing}): when the
     * first destination lacks it, from the source to the first destination with a tree of the
     * further ones that lack it (all of them on a first attempt); when the first destination holds
     * it, checked, from there to each further one that lacks it, so that the source is not read
     * again for a branch that failed.
     *
     * @return the file's size
     * @throws IOException if a transfer fails
     */
    private static long sendMulticast(
            ChunkRequest chunk,
            ChunkListener listener,
            SessionPair lane,
            FileTransfer file,
            String writing,
            TransferOptions options,
            RestartMarkers markers,
            AtomicBoolean receiving,
            MulticastCopies copies)
            throws IOException {
        int slash = writing.lastIndexOf('/');
        String directory = slash <= 0 ? "/" : writing.substring(0, slash);
        List<Integer> missing = copies.missing();
        if (missing.isEmpty()) {
            return file.sizeBytes();
        }
        if (missing.get(0) == 0) {
            List<Integer> further = new ArrayList<>();
            for (int position : missing.subList(1, missing.size())) {
                further.add(position - 1);
            }
            if (further.size() == chunk.additionalDestinations().size()) {
                lane.ensureAdditionalDirectory(directory); // asked once per lane sessions
            } else {
                for (int index : further) {
                    lane.ensureAdditionalDirectory(index, directory);
                }
            }
            String stack = further.isEmpty()
                    ? "file"
                    : further.size() == chunk.additionalDestinations().size()
                            ? lane.multicastStack()
                            : lane.multicastStack(further);
            lane.destination().setDiskStack(stack);
            copies.sendingToFirst();
            long sent;
            TransferListener reporting = reportingMarkers(listener, file, markers, receiving);
            try (MulticastCopies.Poller poller = copies.poll(lane, writing, listener, file)) {
                sent = lane.source()
                        .sendTo(
                                file.sourcePath(),
                                progressDestination(lane, options),
                                writing,
                                options,
                                new TransferListener() {
                                    @Override
                                    public void onReceiveStarted() {
                                        reporting.onReceiveStarted();
                                    }

                                    @Override
                                    public void onProgress(long bytesTransferred) {
                                        reporting.onProgress(bytesTransferred);
                                        copies.bytes(0, bytesTransferred);
                                    }

                                    @Override
                                    public void onRestartMarker(String ranges) {
                                        reporting.onRestartMarker(ranges);
                                    }

                                    @Override
                                    public void onFileCompleted(FilePair pair, long bytesTransferred) {
                                        reporting.onFileCompleted(pair, bytesTransferred);
                                    }
                                });
            }
            lane.destination().setDiskStack("file"); // plain files again for CKSM, RNFR and the next file
            return sent;
        }
        // the first destination holds the file, checked: the others get it from there
        for (int position : missing) {
            lane.ensureAdditionalDirectory(position - 1, directory);
            lane.destination()
                    .sendTo(
                            writing,
                            lane.additionalDestination(position - 1),
                            writing,
                            options,
                            new TransferListener() {
                                @Override
                                public void onProgress(long bytesTransferred) {
                                    copies.bytes(position, bytesTransferred);
                                    copies.report(listener, file);
                                }
                            });
        }
        return file.sizeBytes();
    }

    /**
     * A multicast file at each further destination: its size, and its checksum when the chunk
     * checks checksums (equal to the first destination's, which equals the source's).
     *
     * @throws SizeMismatchException if a destination holds another size (the file is sent again)
     * @throws ChecksumMismatchException if a destination holds other bytes
     * @throws IOException if a session fails
     */
    private static void verifyAdditional(
            ChunkRequest chunk, SessionPair lane, FileTransfer file, String writing, Arrival arrival)
            throws IOException {
        List<GridFtpSession> others = lane.additionalDestinations();
        for (int i = 0; i < others.size(); i++) {
            String endpoint = chunk.additionalDestinations().get(i).endpoint();
            long there = others.get(i).stat(writing).sizeBytes();
            if (there != arrival.bytes()) {
                throw new SizeMismatchException(writing + " has " + there + " bytes at " + endpoint
                        + " after the multicast transfer, the source " + arrival.bytes());
            }
            if (arrival.checksum() != null) {
                String algorithm = chunk.checksumAlgorithm().name();
                String sum = algorithm + ":"
                        + others.get(i).checksum(algorithm, writing).toLowerCase(Locale.ROOT);
                if (!sum.equals(arrival.checksum())) {
                    throw new ChecksumMismatchException(algorithm + " of " + file.destinationPath() + " is " + sum
                            + " at " + endpoint + ", " + arrival.checksum() + " at the source");
                }
            }
        }
    }

    /**
     * After a transfer (and after its checksums, which read the source again): the source must
     * still be the version the file was planned with, as Globus Transfer checks (an MLST, RFC 3659
     * section 7, compared by {@link SourceChangedException#compare}). A file appended to or
     * rewritten while it was read leaves bytes at the destination that may match neither version.
     *
     * @param mismatch the destination's mismatch found before, kept as suppressed; or null
     * @throws SourceChangedException if the source's size or modification time differ from the plan
     * @throws IOException if the MLST fails
     */
    private static void requireUnchanged(SessionPair lane, FileTransfer file, IOException mismatch) throws IOException {
        SourceChangedException changed =
                SourceChangedException.compare(file, lane.source().stat(file.sourcePath()));
        if (changed != null) {
            if (mismatch != null) {
                changed.addSuppressed(mismatch);
            }
            throw changed;
        }
    }

    /** @return the lane's destination, asked for performance markers every second in MODE E */
    static GridFtpSession progressDestination(SessionPair lane, TransferOptions options) throws IOException {
        return options.mode() == TransferOptions.Mode.STREAM ? lane.destination() : lane.destinationReportingProgress();
    }

    /**
     * @param destinationPath where a file is to end up
     * @return where it is written until checked: {@code .name.ferry-part} in the same directory (a
     *     rename within a directory is atomic on POSIX file systems), or the path itself when the
     *     name is too long to take the suffix
     */
    static String partPath(String destinationPath) {
        int slash = destinationPath.lastIndexOf('/');
        String name = destinationPath.substring(slash + 1);
        if (name.isEmpty() || name.length() > PART_NAME_LIMIT) {
            return destinationPath;
        }
        return destinationPath.substring(0, slash + 1) + "." + name + PART_SUFFIX;
    }

    /**
     * @return whether the temporary file reaches at least the end of the acknowledged ranges (a
     *     missing or shorter file cannot hold them: resuming would leave holes); false when it
     *     cannot be asked (sending everything again is always safe)
     */
    private static boolean holds(SessionPair lane, String writing, List<ByteRange> acknowledged) {
        long end = acknowledged.stream().mapToLong(ByteRange::end).max().orElse(0);
        try {
            return lane.destination().sizes(List.of(writing))[0] >= end;
        } catch (IOException | RuntimeException e) {
            lane.close();
            return false;
        }
    }

    /**
     * Renames the checked temporary file to its final name (over an older file of that name). A
     * rename whose reply was lost is recognized on the next attempt: no temporary file left, and the
     * final one of the checked size.
     */
    private static void place(SessionPair lane, String writing, String destinationPath, long bytes) throws IOException {
        if (writing.equals(destinationPath)) {
            return;
        }
        // a multicast file's further destinations first: the first destination's temporary file
        // stays until every copy is placed, so a retry still finds what it must check
        for (GridFtpSession other : lane.additionalDestinations()) {
            place(other, writing, destinationPath, bytes);
        }
        place(lane.destination(), writing, destinationPath, bytes);
    }

    private static void place(GridFtpSession destination, String writing, String destinationPath, long bytes)
            throws IOException {
        try {
            destination.rename(writing, destinationPath);
        } catch (GridFtpReplyException e) {
            long[] there = destination.sizes(List.of(writing, destinationPath));
            if (there[0] < 0 && there[1] == bytes) {
                return;
            }
            throw e;
        }
    }

    /** @return whether the fault is a checksum that did not verify */
    static boolean isChecksumFault(MoverFault fault) {
        return fault.code() == FaultCode.VERIFY_CHECKSUM || fault.code() == FaultCode.EXTERNAL_CHECKSUM_MISMATCH;
    }

    /**
     * Deletes a file whose checksum did not verify from under its final name (best effort, logged):
     * a file that is not what the source or the user says must not look complete.
     */
    static void removeUnchecked(SessionPair lane, String path) {
        try {
            removeIfThere(lane.destination(), path);
            for (GridFtpSession other : lane.additionalDestinations()) {
                removeIfThere(other, path);
            }
        } catch (IOException | RuntimeException e) {
            lane.close();
            log.warn("Could not remove {}, whose checksum did not verify: {}", path, e.toString());
        }
    }

    /**
     * Removes a temporary file no attempt will resume (best effort: a leftover only wastes space),
     * at the destination and, for a multicast chunk, at every further destination, which got it
     * forwarded under the same name.
     */
    private static void removeQuietly(SessionPair lane, String writing, String destinationPath) {
        if (writing.equals(destinationPath)) {
            return;
        }
        try {
            removeIfThere(lane.destination(), writing);
            for (GridFtpSession other : lane.additionalDestinations()) {
                removeIfThere(other, writing);
            }
        } catch (IOException | RuntimeException e) {
            lane.close();
            log.debug("Could not remove {}: {}", writing, e.toString());
        }
    }

    private static void removeIfThere(GridFtpSession session, String path) throws IOException {
        if (session.sizes(List.of(path))[0] >= 0) {
            session.delete(path);
        }
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
    private static List<ByteRange> streamPrefix(
            SessionPair lane, FileTransfer file, String writing, List<ByteRange> before) {
        try {
            long there = lane.destination().sizes(List.of(writing))[0];
            long prefix = Math.min(there, file.sizeBytes());
            return prefix <= 0 ? List.of() : List.of(new ByteRange(0, prefix));
        } catch (IOException | RuntimeException e) {
            lane.close();
            return before;
        }
    }

    /** After a 226: the destination must hold the whole file (a MODE E file can be cut short silently). */
    private static void verifySize(SessionPair lane, String path, long bytes) throws IOException {
        long there = lane.destination().stat(path).sizeBytes();
        if (there != bytes) {
            throw new SizeMismatchException(path + " has " + there + " bytes after the transfer, the source " + bytes);
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
     * @param chunk the chunk (algorithm, whether to verify)
     * @param file the file
     * @return whether the file's checksum is checked after it arrived: the task asked for {@code
     *     verify_checksum}, or the user gave the file's checksum ({@code external_checksum})
     */
    static boolean checksChecksum(ChunkRequest chunk, FileTransfer file) {
        return chunk.verifyChecksum() || file.externalChecksum() != null;
    }

    /** @return {@code ALGORITHM:hex} of the file (see {@link #verify(ChunkRequest, SessionPair, FileTransfer, String)}) */
    static String verify(ChunkRequest chunk, SessionPair lane, FileTransfer file) throws IOException {
        return verify(chunk, lane, file, file.destinationPath());
    }

    /**
     * The verify step: the destination's checksum (CKSM in the chunk's algorithm) must equal the
     * source's, and the one the user gave when there is one. Source first: a destination that
     * differs from its source was damaged on the way (sending it again can help); one that equals
     * its source but not the given value holds what the source holds (sending it again cannot).
     *
     * @param written where the destination holds the file (its temporary name until checked)
     * @return {@code ALGORITHM:hex} of the file (lowercase), equal at both ends
     * @throws ChecksumMismatchException if source and destination differ (both values named)
     * @throws ExternalChecksumMismatchException if the destination differs from the given value
     *     (both values named)
     * @throws IOException if a CKSM fails
     */
    static String verify(ChunkRequest chunk, SessionPair lane, FileTransfer file, String written) throws IOException {
        String algorithm = chunk.checksumAlgorithm().name();
        String sourceSum = lane.source().checksum(algorithm, file.sourcePath()).toLowerCase(Locale.ROOT);
        String destinationSum = lane.destination().checksum(algorithm, written).toLowerCase(Locale.ROOT);
        if (!sourceSum.equals(destinationSum)) {
            throw new ChecksumMismatchException(algorithm + " of " + file.destinationPath() + " is " + destinationSum
                    + " at the destination, " + sourceSum + " at the source");
        }
        String given = file.externalChecksum();
        if (given != null && !given.toLowerCase(Locale.ROOT).equals(destinationSum)) {
            throw new ExternalChecksumMismatchException(algorithm + " of " + file.destinationPath() + " is "
                    + destinationSum + " (source and destination agree), the external_checksum given is "
                    + given.toLowerCase(Locale.ROOT));
        }
        return algorithm + ":" + destinationSum;
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
