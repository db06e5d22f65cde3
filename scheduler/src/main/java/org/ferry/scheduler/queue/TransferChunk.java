package org.ferry.scheduler.queue;

import java.util.List;
import java.util.UUID;
import org.ferry.mover.runner.ChunkTuning;
import org.ferry.mover.runner.FileTransfer;

/**
 * A work-queue message: some files of one task and how to move them. Identified by task id and
 * chunk id (the Kafka key will be the task id), self-contained so a mover in another process can
 * run it; endpoint logins are looked up by the mover, never carried in the message.
 *
 * @param taskId the task
 * @param chunkId 0-based position among the task's chunks of one plan
 * @param files files to move, smallest first
 * @param tuning concurrency, parallelism, pipelining
 */
public record TransferChunk(UUID taskId, int chunkId, List<FileTransfer> files, ChunkTuning tuning) {

    /** @return the chunk's bytes (planned sizes) */
    public long sizeBytes() {
        return files.stream().mapToLong(FileTransfer::sizeBytes).sum();
    }
}
