package org.ferry.mover.client;

import java.util.Objects;

/**
 * One file of a batch transfer: where it comes from and where it goes. For third-party transfers
 * both are absolute paths on the servers; for uploads the source is a local file system path, for
 * downloads the destination is.
 *
 * @param source the source path
 * @param destination the destination path
 */
public record FilePair(String source, String destination) {

    /** @throws NullPointerException if either path is null */
    public FilePair {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(destination, "destination");
    }
}
