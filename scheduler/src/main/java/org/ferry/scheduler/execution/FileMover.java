package org.ferry.scheduler.execution;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.ferry.mover.client.FilePair;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;
import org.ferry.scheduler.TransferProperties;
import org.ferry.scheduler.queue.FileTransfer;
import org.springframework.stereotype.Component;

/**
 * Moves files between the endpoints of a session pair (third-party, MODE E), verifies checksums if
 * asked, and retries faults with back-off until {@code ferry.transfer.max-attempts}: one file at a
 * time with progress from performance markers, or a batch of small files pipelined
 * ({@link org.ferry.mover.client.GridFtpSession#sendAll}, as tar streams between Ferry servers).
 */
@Component
public class FileMover {

    private static final String CHECKSUM_ALGORITHM = "MD5";
    private static final long STOP_POLL_MILLIS = 100;

    private final TaskRecorder recorder;
    private final TransferProperties properties;

    /**
     * @param recorder where faults go
     * @param properties attempts and back-off
     */
    public FileMover(TaskRecorder recorder, TransferProperties properties) {
        this.recorder = recorder;
        this.properties = properties;
    }

    /**
     * How a file ended.
     *
     * @param fault null if it arrived or the task was stopped; the last fault if out of attempts
     */
    record Outcome(Fault fault) {
        static final Outcome DONE = new Outcome(null);

        boolean failed() {
            return fault != null;
        }
    }

    /**
     * @param execution the task
     * @param lane the lane's sessions
     * @param file the file
     * @param parallelism MODE E data connections
     * @return {@link Outcome#DONE} when it arrived or the task stopped; a failed outcome when out of attempts
     */
    Outcome move(TaskExecution execution, SessionPair lane, FileTransfer file, int parallelism) {
        TransferOptions options = TransferOptions.extendedBlock(parallelism);
        for (int attempt = 1; ; attempt++) {
            if (execution.isStopped()) {
                return Outcome.DONE;
            }
            AtomicLong attemptBytes = new AtomicLong();
            try {
                TransferListener listener = new TransferListener() {
                    @Override
                    public void onProgress(long bytesTransferred) {
                        // cumulative per file: report the increase since the last marker
                        long before = attemptBytes.getAndUpdate(previous -> Math.max(previous, bytesTransferred));
                        execution.addBytes(Math.max(0, bytesTransferred - before));
                    }
                };
                long bytes = lane.source().sendTo(file.sourcePath(), lane.destination(), file.destinationPath(),
                        options, listener);
                long before = attemptBytes.getAndSet(bytes);
                execution.addBytes(bytes - before);
                if (execution.verifyChecksum()) {
                    verify(lane, file);
                }
                execution.fileArrived(file, bytes);
                return Outcome.DONE;
            } catch (IOException | RuntimeException e) {
                execution.addBytes(-attemptBytes.getAndSet(0));
                lane.close();
                if (execution.isStopped()) {
                    return Outcome.DONE;
                }
                Fault fault = FaultClassifier.classify(e, "Moving " + file.sourcePath() + " to "
                        + file.destinationPath() + " (attempt " + attempt + " of " + properties.maxAttempts() + ")");
                recorder.fault(execution, fault);
                if (attempt >= properties.maxAttempts()) {
                    return new Outcome(fault);
                }
                if (!pause(execution, properties.backoffSeconds(attempt) * 1000)) {
                    return Outcome.DONE;
                }
            }
        }
    }

    /**
     * Moves a batch of small files in one pipelined exchange ({@code pipelining} transfer commands in
     * flight). Files that arrive are recorded as they complete; when the batch fails, the files it
     * did not finish go through {@link #move} one by one, so each fault is recorded against its file
     * and retried as usual.
     *
     * @param execution the task
     * @param lane the lane's sessions
     * @param batch the files, each small enough that progress at its end is progress enough
     * @param parallelism MODE E data connections
     * @param pipelining transfer commands in flight (1..1000)
     * @return {@link Outcome#DONE}, or the first failed outcome of a file out of attempts
     */
    Outcome moveBatch(TaskExecution execution, SessionPair lane, List<FileTransfer> batch, int parallelism,
            int pipelining) {
        // sendAll reports completed files on this thread: plain collections will do
        Map<FilePair, FileTransfer> byPair = new LinkedHashMap<>();
        for (FileTransfer file : batch) {
            byPair.put(new FilePair(file.sourcePath(), file.destinationPath(), file.sizeBytes()), file);
        }
        Set<FileTransfer> left = new LinkedHashSet<>(batch); // in batch order, for the one-by-one retries
        Map<FileTransfer, Long> arrived = new LinkedHashMap<>();
        if (!execution.isStopped()) {
            try {
                lane.source().sendAll(List.copyOf(byPair.keySet()), lane.destination(),
                        TransferOptions.extendedBlock(parallelism), Math.max(1, Math.min(1000, pipelining)),
                        new TransferListener() {
                            @Override
                            public void onFileCompleted(FilePair pair, long bytesTransferred) {
                                FileTransfer done = byPair.get(pair);
                                if (done != null && left.remove(done)) {
                                    execution.addBytes(bytesTransferred);
                                    arrived.put(done, bytesTransferred);
                                    if (!execution.verifyChecksum()) {
                                        execution.fileArrived(done, bytesTransferred);
                                    }
                                }
                            }
                        });
            } catch (IOException | RuntimeException e) {
                lane.close(); // the sessions may be out of step; the files left retry one by one
                if (execution.isStopped()) {
                    return Outcome.DONE;
                }
                recorder.fault(execution, FaultClassifier.classify(e, "Moving a batch of " + batch.size()
                        + " files (" + left.size() + " left to move one by one)"));
            }
        }
        if (execution.verifyChecksum()) {
            for (Map.Entry<FileTransfer, Long> entry : arrived.entrySet()) {
                FileTransfer file = entry.getKey();
                try {
                    verify(lane, file);
                    execution.fileArrived(file, entry.getValue());
                } catch (IOException | RuntimeException e) {
                    execution.addBytes(-entry.getValue());
                    lane.close();
                    recorder.fault(execution, FaultClassifier.classify(e, "Verifying " + file.destinationPath()
                            + " after a batch (moving it again on its own)"));
                    left.add(file);
                }
            }
        }
        for (FileTransfer file : left) {
            Outcome outcome = move(execution, lane, file, parallelism);
            if (outcome.failed()) {
                return outcome;
            }
        }
        return Outcome.DONE;
    }

    private static void verify(SessionPair lane, FileTransfer file) throws IOException {
        String sourceSum = lane.source().checksum(CHECKSUM_ALGORITHM, file.sourcePath());
        String destinationSum = lane.destination().checksum(CHECKSUM_ALGORITHM, file.destinationPath());
        if (!sourceSum.equalsIgnoreCase(destinationSum)) {
            throw new ChecksumMismatchException("MD5 of " + file.destinationPath() + " is " + destinationSum
                    + ", source has " + sourceSum);
        }
    }

    /**
     * Waits out a back-off unless the task stops first.
     *
     * @return false if the task stopped or the thread was interrupted
     */
    static boolean pause(TaskExecution execution, long millis) {
        long end = System.currentTimeMillis() + millis;
        try {
            while (System.currentTimeMillis() < end) {
                if (execution.isStopped()) {
                    return false;
                }
                Thread.sleep(Math.min(STOP_POLL_MILLIS, Math.max(1, end - System.currentTimeMillis())));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        return !execution.isStopped();
    }
}
