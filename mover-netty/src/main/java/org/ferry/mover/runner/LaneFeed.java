package org.ferry.mover.runner;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Hands the files of one chunk to the chunk's lanes: big files and files resuming from restart
 * markers one at a time, runs of small files as batches. A batch is at most the lane's share of what is left (guided self-scheduling: half of
 * it with two lanes, then less and less), so a chunk of 101 to 200 small files, which the tuning
 * gives concurrency 2, keeps both session pairs busy instead of one lane taking the whole run; the
 * share never goes below the chunk's pipelining (smaller batches would not fill the pipeline) nor
 * above {@link #BATCH_MAX_FILES}. Thread-safe: the lanes share it.
 */
final class LaneFeed {

    /**
     * Files up to this size go in pipelined batches; bigger ones move one at a time. Both show
     * their bytes in flight from performance markers.
     */
    static final long BATCH_FILE_MAX_BYTES = 16L << 20;
    /** A lane takes at most this many files for one batch. */
    static final int BATCH_MAX_FILES = 200;
    /** ...and about this many bytes. */
    static final long BATCH_MAX_BYTES = 256L << 20;

    private final ConcurrentLinkedQueue<FileTransfer> files;
    private final int lanes;
    private final int pipelining;

    /**
     * @param files the chunk's files, in the order to move them
     * @param lanes how many lanes take from this feed (at least 1)
     * @param pipelining transfer commands in flight per lane; 1 or less: no batches
     */
    LaneFeed(List<FileTransfer> files, int lanes, int pipelining) {
        if (lanes < 1) {
            throw new IllegalArgumentException("lanes must be at least 1: " + lanes);
        }
        this.files = new ConcurrentLinkedQueue<>(files);
        this.lanes = lanes;
        this.pipelining = pipelining;
    }

    /**
     * What a lane moves next.
     *
     * @param files the files, in order
     * @param pipelined true: move them as one pipelined batch; false: one file on its own
     */
    record Work(List<FileTransfer> files, boolean pipelined) {}

    /**
     * @return the next work for a lane: one big file (or any file when batches are off) on its
     *     own, or a batch of small files; null when every file has been handed out
     */
    Work next() {
        int left = files.size(); // counted before taking, so it includes the first file
        FileTransfer first = files.poll();
        if (first == null) {
            return null;
        }
        if (first.sizeBytes() > BATCH_FILE_MAX_BYTES || pipelining <= 1 || first.isResumed()) {
            return new Work(List.of(first), false);
        }
        int share = (Math.max(left, 1) + lanes - 1) / lanes;
        int limit = Math.min(BATCH_MAX_FILES, Math.max(pipelining, share));
        List<FileTransfer> batch = new ArrayList<>(List.of(first));
        long bytes = first.sizeBytes();
        FileTransfer next;
        while (batch.size() < limit && bytes < BATCH_MAX_BYTES && (next = files.poll()) != null) {
            if (next.sizeBytes() > BATCH_FILE_MAX_BYTES || next.isResumed()) {
                // a big file, or one resuming from restart markers, met on the way: back to the
                // queue, for a lane to move alone
                files.add(next);
                break;
            }
            batch.add(next);
            bytes += next.sizeBytes();
        }
        return new Work(List.copyOf(batch), true);
    }
}
