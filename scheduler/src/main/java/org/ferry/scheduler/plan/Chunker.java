package org.ferry.scheduler.plan;

import java.util.ArrayList;
import java.util.List;
import org.ferry.mover.runner.FileTransfer;

/**
 * Cuts a chunk from a task's ready files (smallest first, as the database hands them out): at
 * most {@code maxFiles} files and {@code maxBytes} bytes, at least one file, so that each chunk
 * holds files of similar size and can be tuned as one.
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

    /** @return most files per chunk */
    public int maxFiles() {
        return maxFiles;
    }

    /**
     * @param ready ready files, in the order to take them
     * @return the files of the next chunk: a prefix of {@code ready}
     */
    public List<FileTransfer> cut(List<FileTransfer> ready) {
        List<FileTransfer> chunk = new ArrayList<>();
        long bytes = 0;
        for (FileTransfer file : ready) {
            if (chunk.size() >= maxFiles || (!chunk.isEmpty() && bytes + file.sizeBytes() > maxBytes)) {
                break;
            }
            chunk.add(file);
            bytes += file.sizeBytes();
        }
        return chunk;
    }
}
