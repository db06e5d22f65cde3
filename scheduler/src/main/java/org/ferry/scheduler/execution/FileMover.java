package org.ferry.scheduler.execution;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;
import org.ferry.scheduler.TransferProperties;
import org.ferry.scheduler.queue.FileTransfer;
import org.springframework.stereotype.Component;

/**
 * Moves one file between the endpoints of a session pair (third-party, MODE E), verifies its
 * checksum if asked, and retries faults with back-off until {@code ferry.transfer.max-attempts}.
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
