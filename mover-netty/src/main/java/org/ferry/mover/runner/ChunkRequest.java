package org.ferry.mover.runner;

import java.util.List;
import java.util.Objects;
import org.ferry.mover.client.GridFtpUrl;

/**
 * One chunk to move: everything a mover needs, as plain values.
 *
 * @param source the source endpoint's server, with its login
 * @param destination the destination endpoint's server, with its login
 * @param files the files, in the order to move them
 * @param tuning concurrency, parallelism, pipelining
 * @param verifyChecksum compare MD5 checksums of source and destination after each file
 */
public record ChunkRequest(
        GridFtpUrl source,
        GridFtpUrl destination,
        List<FileTransfer> files,
        ChunkTuning tuning,
        boolean verifyChecksum) {

    /** @throws NullPointerException if a value is missing */
    public ChunkRequest {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(tuning, "tuning");
        files = List.copyOf(files);
    }
}
