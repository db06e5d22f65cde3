package org.ferry.mover.runner;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.ferry.mover.client.FilePair;
import org.ferry.mover.client.GridFtpReplyException;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;
import org.ferry.mover.protocol.FileInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves a batch of small files between a lane's session pair in one pipelined exchange
 * ({@link org.ferry.mover.client.GridFtpSession#sendAll}, as tar streams between Ferry servers),
 * checks them after the batch with one pipelined {@code SIZE} exchange on each end (the source's
 * finds files that changed while the batch read them), or their checksums, sets
 * their modification times with one pipelined {@code MFMT} exchange when the chunk preserves them,
 * and only then reports them arrived. What the batch left over, or what failed a check, goes to
 * {@link FileMover} one file at a time, so each fault is reported against its file.
 */
final class BatchMover {

    private static final Logger log = LoggerFactory.getLogger(BatchMover.class);

    private final FileMover single;

    /** @param single moves the files a batch left over, one by one */
    BatchMover(FileMover single) {
        this.single = single;
    }

    /**
     * Moves a batch of small files in one pipelined exchange ({@code pipelining} transfer commands in
     * flight), then checks them at the destination: their sizes with one pipelined {@code SIZE}
     * exchange (a 226 alone is not proof: a file can be cut short silently), or their checksums when
     * the chunk verifies them. Only then are they reported arrived. Files the batch did not finish,
     * and files that fail the check, go through {@link FileMover#move} one by one, so each fault is reported
     * against its file and retried as usual.
     *
     * @param chunk the chunk (checksum setting)
     * @param listener where results go
     * @param lane the lane's sessions
     * @param batch the files; the bytes in flight of the running step come from the destination's
     *     performance markers (asked every second in MODE E), each file counts whole once both
     *     sides finished it, and arrives once checked
     * @param options MODE E with its parallelism
     * @param pipelining transfer commands in flight (1..1000)
     * @return {@link FileMover.Outcome#DONE}, or the first failed outcome of a file out of attempts on a
     *     transient fault
     */
    FileMover.Outcome moveBatch(
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
        Map<FileTransfer, Boolean> unfinished = new LinkedHashMap<>(); // opened at the destination, to written in order
        if (!listener.isStopped()) {
            StepInFlight inFlight = new StepInFlight(listener, batch);
            try {
                lane.source()
                        .sendAll(
                                new ArrayList<>(byPair.keySet()),
                                FileMover.progressDestination(lane, options),
                                options,
                                Math.max(1, Math.min(1000, pipelining)),
                                new TransferListener() {
                                    @Override
                                    public void onProgress(long bytesTransferred) {
                                        inFlight.marker(bytesTransferred);
                                    }

                                    @Override
                                    public void onFileCompleted(FilePair pair, long bytesTransferred) {
                                        FileTransfer done = byPair.get(pair);
                                        if (done != null && left.remove(done)) {
                                            inFlight.completed(done);
                                            listener.onBytes(bytesTransferred);
                                            completed.put(done, bytesTransferred);
                                        }
                                    }

                                    @Override
                                    public void onFileUnfinished(FilePair pair, boolean writtenInOrder) {
                                        FileTransfer file = byPair.get(pair);
                                        if (file != null) {
                                            unfinished.merge(file, writtenInOrder, Boolean::logicalAnd);
                                        }
                                    }
                                });
            } catch (IOException | RuntimeException e) {
                lane.close(); // the sessions may be out of step; the files left retry one by one
                if (listener.isStopped()) {
                    return FileMover.Outcome.DONE;
                }
                MoverFault fault = Faults.classify(e, "Moving a batch of " + batch.size() + " files");
                if (fault.code() == FaultCode.NO_CREDENTIALS) {
                    return new FileMover.Outcome(fault); // no file moves until the endpoint is activated again
                }
                if (Faults.refusedAsBusy(e)) {
                    listener.onSessionRefused(fault); // the optimizer must see the server's session limit
                }
                // not counted against a file: each file left is tried on its own next and reports its own fault
                log.info(
                        "A batch of {} files failed ({} left to move one by one): {}",
                        batch.size(),
                        left.size(),
                        fault.description());
                unfinished.keySet().retainAll(left);
                removeCutShort(lane, unfinished);
            } finally {
                inFlight.takeBack(); // only completed files stay counted, until checked
            }
        }
        Map<FileTransfer, Arrival> untimed = new LinkedHashMap<>(); // checked, only the time left to set
        if (!completed.isEmpty() && !listener.isStopped()) {
            requireSourcesUnchanged(listener, lane, completed, left);
        }
        if (!completed.isEmpty() && !listener.isStopped()) {
            Map<FileTransfer, Arrival> checked = new LinkedHashMap<>();
            Map<FileTransfer, Long> bySum = new LinkedHashMap<>();
            Map<FileTransfer, Long> bySize = new LinkedHashMap<>();
            completed.forEach(
                    (file, bytes) -> (FileMover.checksChecksum(chunk, file) ? bySum : bySize).put(file, bytes));
            if (!bySum.isEmpty()) {
                verifyChecksums(chunk, listener, lane, bySum, left, checked);
            }
            if (!bySize.isEmpty()) {
                verifySizes(listener, lane, bySize, left, checked);
            }
            if (chunk.preserveTimestamp()) {
                setModifiedTimes(listener, lane, checked, left, untimed);
            } else {
                checked.forEach((file, arrival) -> listener.onFileArrived(file, arrival.bytes(), arrival.checksum()));
            }
        }
        for (FileTransfer file : left) {
            FileMover.Outcome outcome = single.move(chunk, listener, lane, file, options, untimed.get(file));
            if (outcome.failed()) {
                return outcome;
            }
        }
        return FileMover.Outcome.DONE;
    }

    /**
     * One pipelined SIZE exchange on the source for the batch's completed files (RFC 3659 section
     * 4): a file whose source no longer has its planned size changed while the batch read it. The
     * batch wrote it in place, so it is deleted from under its final name (it may match neither
     * version), reported ({@code FILE_SIZE_CHANGED}, its new facts from one MLST) and moved again
     * on its own, planned with the new size and time, where {@link FileMover} checks the source
     * after the transfer again. When the exchange fails, every completed file goes back to {@code
     * left} without a fault (moved on its own, and checked there). A change that keeps the size is
     * not seen here (the single move's MLST compares times too; {@code verify_checksum} compares
     * content).
     *
     * @param completed the completed files to their bytes; those that go back are removed
     */
    private static void requireSourcesUnchanged(
            ChunkListener listener, SessionPair lane, Map<FileTransfer, Long> completed, Set<FileTransfer> left) {
        List<FileTransfer> files = new ArrayList<>(completed.keySet());
        long[] now;
        try {
            now = lane.source()
                    .sizes(files.stream().map(FileTransfer::sourcePath).toList());
        } catch (IOException | RuntimeException e) {
            lane.close();
            log.info(
                    "Checking the sources of {} files after a batch failed (moving them again one by one): {}",
                    files.size(),
                    Faults.classify(e, "SIZE").description());
            for (FileTransfer file : files) {
                listener.onBytes(-completed.remove(file));
                left.add(file);
            }
            return;
        }
        for (int i = 0; i < files.size(); i++) {
            FileTransfer file = files.get(i);
            if (now[i] == file.sizeBytes()) {
                continue;
            }
            listener.onBytes(-completed.remove(file));
            FileMover.removeUnchecked(lane, file.destinationPath());
            FileTransfer again = file.afterFailedAttempt();
            IOException why;
            try {
                FileInfo facts = lane.source().stat(file.sourcePath());
                SourceChangedException changed = SourceChangedException.compare(file, facts);
                why = changed != null ? changed : SourceChangedException.of(file, now[i], null);
            } catch (IOException e) {
                lane.close();
                why = e; // e.g. deleted meanwhile: FILE_NOT_FOUND
            } catch (RuntimeException e) {
                lane.close();
                why = new IOException(e);
            }
            if (why instanceof SourceChangedException changed) {
                again = changed.replan(again);
            }
            MoverFault fault = Faults.classify(
                    why,
                    "Checking the source of " + file.sourcePath() + " after a batch (attempt "
                            + (file.attemptsBefore() + 1) + ")");
            listener.onFault(file, fault, file.attemptsBefore() + 1, !fault.isPermanent(), List.of());
            if (!fault.isPermanent()) {
                left.add(again);
            }
        }
    }

    /**
     * After a failed batch: the files the destination opened and did not finish may stand cut short
     * under their final names (a batch writes in place), where a later task would take them for
     * present while these wait (a full disk) to be sent again under temporary names. Deletes those
     * whose bytes may have landed in any order (MODE E: a copy cut short may have its full size),
     * and those written in order whose size is not the source's, found with one pipelined SIZE
     * exchange on fresh sessions. Files the destination never opened keep what stood there (an
     * older version). Best effort: a file that cannot be examined or deleted is overwritten by its
     * next attempt anyway.
     *
     * @param unfinished files left over that the destination opened, to whether they were written
     *     in order
     */
    private static void removeCutShort(SessionPair lane, Map<FileTransfer, Boolean> unfinished) {
        if (unfinished.isEmpty()) {
            return;
        }
        List<FileTransfer> files = new ArrayList<>(unfinished.keySet());
        try {
            long[] there = lane.destination()
                    .sizes(files.stream().map(FileTransfer::destinationPath).toList());
            for (int i = 0; i < files.size(); i++) {
                FileTransfer file = files.get(i);
                if (there[i] >= 0 && (!unfinished.get(file) || there[i] != file.sizeBytes())) {
                    lane.destination().delete(file.destinationPath());
                }
            }
        } catch (IOException | RuntimeException e) {
            lane.close();
            log.info("Could not remove the files a failed batch cut short: {}", e.toString());
        }
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
                times.add(FileMover.sourceModified(lane, file));
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
     * The batch's completed files whose checksum verifies ({@link FileMover#verify}) go to {@code
     * checked}. A file that does not verify is deleted from under its final name (a batch writes in
     * place: it must not stand there as done) and, for a source/destination mismatch, goes back to
     * {@code left} to be moved again on its own; a given checksum the source does not match
     * ({@code EXTERNAL_CHECKSUM_MISMATCH}) fails the file.
     */
    private static void verifyChecksums(
            ChunkRequest chunk,
            ChunkListener listener,
            SessionPair lane,
            Map<FileTransfer, Long> completed,
            Set<FileTransfer> left,
            Map<FileTransfer, Arrival> checked) {
        for (Map.Entry<FileTransfer, Long> entry : completed.entrySet()) {
            FileTransfer file = entry.getKey();
            try {
                checked.put(file, new Arrival(entry.getValue(), FileMover.verify(chunk, lane, file)));
            } catch (IOException | RuntimeException e) {
                listener.onBytes(-entry.getValue());
                lane.close();
                MoverFault fault = Faults.classify(
                        e,
                        "Verifying " + file.destinationPath() + " after a batch (attempt " + (file.attemptsBefore() + 1)
                                + ")");
                if (FileMover.isChecksumFault(fault)) {
                    FileMover.removeUnchecked(lane, file.destinationPath());
                }
                boolean retry = !fault.isPermanent();
                listener.onFault(file, fault, file.attemptsBefore() + 1, retry, List.of());
                if (retry) {
                    left.add(file.afterFailedAttempt());
                }
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

    /**
     * The bytes in flight of the batch's running step (a tar stream of many files, or one file),
     * from the receiving server's 112 performance markers (GFD.020 "Performance Monitoring"),
     * reported to the chunk's listener as they come: a batch's files complete only at their step's
     * end, which for a tar stream is the batch's end, so without them a slow batch showed no
     * progress until it was over. Only progress: the files are counted as arrived after their
     * check, as before. The markers count from 0 again for each step (and a tar stream's count
     * includes its headers), so each completed file takes back what the markers had counted, and
     * the count never exceeds the bytes of the files not yet completed. Thread-safe.
     */
    private static final class StepInFlight {
        private final ChunkListener listener;
        private long notCompleted;
        private long counted;

        StepInFlight(ChunkListener listener, List<FileTransfer> batch) {
            this.listener = listener;
            this.notCompleted =
                    batch.stream().mapToLong(f -> Math.max(0, f.sizeBytes())).sum();
        }

        /** @param stepBytes cumulative bytes of the running step, from its latest marker */
        synchronized void marker(long stepBytes) {
            set(Math.max(0, Math.min(stepBytes, notCompleted)));
        }

        /** @param file a file both sides finished: its own bytes are counted in its place */
        synchronized void completed(FileTransfer file) {
            notCompleted -= Math.max(0, file.sizeBytes());
            set(0); // the next step's markers count from its own start
        }

        /** Takes back what the markers counted: the batch is over, or failed. */
        synchronized void takeBack() {
            set(0);
        }

        private void set(long bytes) {
            if (bytes != counted) {
                listener.onBytes(bytes - counted);
                counted = bytes;
            }
        }
    }
}
