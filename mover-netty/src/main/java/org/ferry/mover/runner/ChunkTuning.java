package org.ferry.mover.runner;

import java.util.List;

/**
 * GridFTP settings of one chunk, from its files' sizes (the Globus Online heuristics in
 * ARCHITECTURE.md "Tuning").
 *
 * @param concurrency files moved at once (one source/destination session pair each)
 * @param parallelism MODE E data connections per file
 * @param pipelining transfer commands in flight per session pair when a lane moves a batch of small files
 */
public record ChunkTuning(int concurrency, int parallelism, int pipelining) {

    private static final long MEGABYTE = 1_000_000L;
    private static final int MANY_FILES = 100;
    private static final long SMALL_AVERAGE_BYTES = 50 * MEGABYTE;
    private static final long LARGE_FILE_BYTES = 250 * MEGABYTE;
    private static final long BYTES_PER_STREAM = 1L << 20;

    /**
     * @param files the chunk's files (not empty)
     * @return more than 100 files averaging under 50 MB: 2/2/20; all over 250 MB: 2/8/5;
     *     otherwise 2/4/10; the parallelism at most one data connection per MiB of the chunk
     */
    public static ChunkTuning forFiles(List<FileTransfer> files) {
        long totalBytes = files.stream().mapToLong(FileTransfer::sizeBytes).sum();
        ChunkTuning tuning;
        if (files.size() > MANY_FILES && totalBytes / files.size() < SMALL_AVERAGE_BYTES) {
            tuning = new ChunkTuning(2, 2, 20);
        } else if (!files.isEmpty() && files.stream().allMatch(f -> f.sizeBytes() > LARGE_FILE_BYTES)) {
            tuning = new ChunkTuning(2, 8, 5);
        } else {
            tuning = new ChunkTuning(2, 4, 10);
        }
        // a data connection carries at least a mebibyte of the chunk: a chunk of a few small files
        // (a 1-byte task) would otherwise open four connections, and wait for four EODs, per file
        long streams = Math.max(1, (totalBytes + BYTES_PER_STREAM - 1) / BYTES_PER_STREAM);
        return new ChunkTuning(
                tuning.concurrency(), (int) Math.min(tuning.parallelism(), streams), tuning.pipelining());
    }

    /**
     * Between servers of which one speaks only stream mode: no parallel data connections, no
     * pipelined batches, concurrency only (ARCHITECTURE.md "Tuning").
     *
     * @param files the chunk's files (not empty)
     * @return more than 100 files averaging under 50 MB: 8/1/1; otherwise 2/1/1
     */
    public static ChunkTuning forStreamMode(List<FileTransfer> files) {
        long totalBytes = files.stream().mapToLong(FileTransfer::sizeBytes).sum();
        if (files.size() > MANY_FILES && totalBytes / files.size() < SMALL_AVERAGE_BYTES) {
            return new ChunkTuning(8, 1, 1);
        }
        return new ChunkTuning(2, 1, 1);
    }
}
