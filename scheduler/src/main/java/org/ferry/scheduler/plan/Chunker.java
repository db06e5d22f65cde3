package org.ferry.scheduler.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import org.ferry.mover.runner.ChunkTuning;
import org.ferry.mover.runner.FileTransfer;
import org.ferry.scheduler.queue.TransferChunk;

/**
 * Sorts files by size and cuts them into chunks of at most {@code maxFiles} files and
 * {@code maxBytes} bytes, so that each chunk holds files of similar size and can be tuned as one.
 */
public final class Chunker {

    private final int maxFiles;
    private final long maxBytes;

    /**
     * @param maxFiles most files per chunk (at least 1)
     * @param maxBytes most bytes per chunk; a larger file gets a chunk of its own
     */
    public Chunker(int maxFiles, long maxBytes) {
        if (maxFiles < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("chunk limits must be positive");
        }
        this.maxFiles = maxFiles;
        this.maxBytes = maxBytes;
    }

    /**
     * @param taskId the task
     * @param files files to move, any order
     * @return chunks, smallest files first, each with its tuning
     */
    public List<TransferChunk> cut(UUID taskId, List<FileTransfer> files) {
        List<FileTransfer> sorted = new ArrayList<>(files);
        sorted.sort(Comparator.comparingLong(FileTransfer::sizeBytes).thenComparing(FileTransfer::sourcePath));
        List<TransferChunk> chunks = new ArrayList<>();
        List<FileTransfer> current = new ArrayList<>();
        long currentBytes = 0;
        for (FileTransfer file : sorted) {
            boolean full = current.size() >= maxFiles || currentBytes + file.sizeBytes() > maxBytes;
            if (!current.isEmpty() && full) {
                chunks.add(chunk(taskId, chunks.size(), current));
                current = new ArrayList<>();
                currentBytes = 0;
            }
            current.add(file);
            currentBytes += file.sizeBytes();
        }
        if (!current.isEmpty()) {
            chunks.add(chunk(taskId, chunks.size(), current));
        }
        return chunks;
    }

    private static TransferChunk chunk(UUID taskId, int chunkId, List<FileTransfer> files) {
        return new TransferChunk(taskId, chunkId, List.copyOf(files), ChunkTuning.forFiles(files));
    }
}
