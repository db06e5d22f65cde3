package org.ferry.scheduler.notify;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * What a notification tells about a task, read from its rows when the message is sent.
 *
 * @param taskId the task
 * @param kind SUCCEEDED, FAILED or INACTIVE
 * @param owner the owner's user name
 * @param email the owner's address
 * @param label the task's label, or null
 * @param sourceEndpoint the source's canonical name
 * @param destinationEndpoint the destination's canonical name
 * @param items the transfer items' paths, "source -> destination", in request order
 * @param files files found by the crawl
 * @param filesTransferred files that arrived
 * @param filesSkipped files not sent (already there for the sync level, or skipped for errors)
 * @param bytesTransferred bytes that arrived
 * @param requestTime when the task was submitted
 * @param startTime when work began, or null
 * @param endTime when it ended (SUCCEEDED, FAILED) or went INACTIVE
 * @param deadline its deadline, or null
 * @param errorCode {@code fatal_error.code} of a FAILED task, or null
 * @param errorDescription {@code fatal_error.description}, or why it is INACTIVE
 * @param failedFiles up to a few files that failed: "path: fault"
 * @param failedFileCount how many files failed in all
 */
public record TaskReport(
        UUID taskId,
        String kind,
        String owner,
        String email,
        String label,
        String sourceEndpoint,
        String destinationEndpoint,
        List<String> items,
        long files,
        long filesTransferred,
        long filesSkipped,
        long bytesTransferred,
        Instant requestTime,
        Instant startTime,
        Instant endTime,
        Instant deadline,
        String errorCode,
        String errorDescription,
        List<String> failedFiles,
        long failedFileCount) {

    /** @return from the start of work (or the submission) to the end; zero if unknown */
    public Duration duration() {
        Instant from = startTime != null ? startTime : requestTime;
        if (from == null || endTime == null || endTime.isBefore(from)) {
            return Duration.ZERO;
        }
        return Duration.between(from, endTime);
    }

    /** @return bytes per second over {@link #duration()}, 0 for a zero duration */
    public double bytesPerSecond() {
        long millis = duration().toMillis();
        return millis <= 0 ? 0 : bytesTransferred * 1000.0 / millis;
    }
}
