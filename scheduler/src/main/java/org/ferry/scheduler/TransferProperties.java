package org.ferry.scheduler;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Scheduler settings ({@code ferry.transfer.*}).
 *
 * @param maxAttempts attempts per file within one chunk before the mover gives the file back
 *     (a transient fault; the scheduler offers it again after a back-off, until the deadline)
 * @param retryBackoffSeconds a mover's wait before its attempt 2, 3, ... of a file within a chunk
 * @param retryInitialBackoff the scheduler's first back-off after a transient fault stopped work;
 *     doubled per consecutive fault, with up to 25 % jitter, up to {@code retryMaxBackoff}
 * @param retryMaxBackoff the longest back-off
 * @param chunkMaxFiles most files per chunk
 * @param chunkMaxBytes most bytes per chunk (a larger single file gets a chunk of its own)
 * @param workerThreads chunks the embedded mover moves at once (each opens up to its concurrency in session pairs)
 * @param plannerThreads tasks planned at once (each mostly waits for its endpoints' replies: a few
 *     stat commands for a one-file task)
 * @param progressIntervalSeconds least time between PROGRESS events of a task
 * @param tickInterval how often the scheduler renews leases, checks deadlines and lost chunks,
 *     and dispatches (it also runs at once on a submission, a cancel or a chunk's end)
 * @param lease how long a ferry-server instance owns a task without renewing its lease
 * @param chunkTimeout a chunk whose mover sent nothing for this long is taken as lost: its files
 *     go back to PENDING and are offered again, resuming from their restart markers
 * @param heartbeatInterval how often a mover reports progress of each running chunk
 * @param maxActiveChunksPerUser chunks of one user moving at once (0: no limit)
 * @param maxActiveChunksPerEndpointPair chunks between one source and destination endpoint at once (0: no limit)
 * @param maxActiveChunks chunks moving at once through the Kafka work queue (all movers together)
 * @param resultBatchSize most mover results applied in one database transaction
 */
@ConfigurationProperties(prefix = "ferry.transfer")
public record TransferProperties(
        @DefaultValue("2") int maxAttempts,
        @DefaultValue({"1"}) List<Integer> retryBackoffSeconds,
        @DefaultValue("2s") Duration retryInitialBackoff,
        @DefaultValue("60s") Duration retryMaxBackoff,
        @DefaultValue("500") int chunkMaxFiles,
        @DefaultValue("1073741824") long chunkMaxBytes,
        @DefaultValue("2") int workerThreads,
        @DefaultValue("4") int plannerThreads,
        @DefaultValue("5") int progressIntervalSeconds,
        @DefaultValue("1s") Duration tickInterval,
        @DefaultValue("30s") Duration lease,
        @DefaultValue("20s") Duration chunkTimeout,
        @DefaultValue("1s") Duration heartbeatInterval,
        @DefaultValue("0") int maxActiveChunksPerUser,
        @DefaultValue("0") int maxActiveChunksPerEndpointPair,
        @DefaultValue("8") int maxActiveChunks,
        @DefaultValue("2000") int resultBatchSize) {

    /**
     * @param consecutiveFaults transient faults in a row (1 after the first)
     * @param random a value in [0, 1) for the jitter
     * @return the back-off before work resumes: initial x 2^(n-1), at most the maximum, minus up to 25 % jitter
     */
    public Duration backoff(int consecutiveFaults, double random) {
        long initial = retryInitialBackoff.toMillis();
        long max = retryMaxBackoff.toMillis();
        int exponent = Math.max(0, Math.min(30, consecutiveFaults - 1));
        long base = Math.min(max, initial << Math.min(exponent, 20));
        long jitter = (long) (base * 0.25 * random);
        return Duration.ofMillis(Math.max(0, base - jitter));
    }
}
