package org.ferry.scheduler;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Scheduler settings ({@code ferry.transfer.*}).
 *
 * @param maxAttempts attempts per file (and per planning) before the task fails
 * @param retryBackoffSeconds wait before attempt 2, 3, ...; the last value repeats
 * @param chunkMaxFiles most files per chunk
 * @param chunkMaxBytes most bytes per chunk (a larger single file gets a chunk of its own)
 * @param workerThreads chunks moved at once (each opens up to its concurrency in session pairs)
 * @param plannerThreads tasks planned at once
 * @param progressIntervalSeconds least time between PROGRESS events of a task
 * @param flushIntervalMillis how often counters are written to the database
 */
@ConfigurationProperties(prefix = "ferry.transfer")
public record TransferProperties(
        @DefaultValue("3") int maxAttempts,
        @DefaultValue({"1", "5", "15"}) List<Integer> retryBackoffSeconds,
        @DefaultValue("500") int chunkMaxFiles,
        @DefaultValue("1073741824") long chunkMaxBytes,
        @DefaultValue("2") int workerThreads,
        @DefaultValue("2") int plannerThreads,
        @DefaultValue("5") int progressIntervalSeconds,
        @DefaultValue("1000") long flushIntervalMillis) {

    /**
     * @param failedAttempt 1 after the first failure
     * @return seconds to wait before the next attempt
     */
    public long backoffSeconds(int failedAttempt) {
        if (retryBackoffSeconds.isEmpty()) {
            return 0;
        }
        return retryBackoffSeconds.get(Math.min(failedAttempt, retryBackoffSeconds.size()) - 1);
    }
}
