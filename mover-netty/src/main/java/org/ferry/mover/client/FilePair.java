package org.ferry.mover.client;

import java.util.Objects;

/**
 * One file of a batch transfer: where it comes from and where it goes. For third-party transfers
 * both are absolute paths on the servers; for uploads the source is a local file system path, for
 * downloads the destination is.
 *
 * @param source the source path
 * @param destination the destination path
 * @param sizeBytes the source's size as a listing showed it, or -1 if unknown; a batch asks the
 *     source server (SIZE) only for files whose size is unknown
 */
public record FilePair(String source, String destination, long sizeBytes) {

    /** @throws NullPointerException if either path is null */
    public FilePair {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(destination, "destination");
        if (sizeBytes < -1) {
            throw new IllegalArgumentException("sizeBytes must be -1 (unknown) or >= 0, was " + sizeBytes);
        }
    }

    /**
     * A file whose size is not known yet.
     *
     * @param source the source path
     * @param destination the destination path
     */
    public FilePair(String source, String destination) {
        this(source, destination, -1);
    }
}
