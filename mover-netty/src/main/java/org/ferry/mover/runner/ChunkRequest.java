package org.ferry.mover.runner;

import java.util.List;
import java.util.Objects;
import org.ferry.mover.access.EndpointAccess;
import org.ferry.mover.data.security.ProtectionLevel;

/**
 * One chunk to move: everything a mover needs, as plain values (secrets sealed).
 *
 * @param source how to log in to the source endpoint's server
 * @param destination how to log in to the destination endpoint's server
 * @param files the files, in the order to move them
 * @param tuning concurrency, parallelism, pipelining
 * @param verifyChecksum compare MD5 checksums of source and destination after each file
 * @param dataProtection the least protection of every data channel of the chunk: PROT P when the
 *     task asked for {@code encrypt_data}, else C (data channels are still authenticated, DCAU A,
 *     on GSI endpoints)
 * @param preserveTimestamp give each destination file its source's modification time
 *     ({@code preserve_timestamp}) before it is reported arrived
 */
public record ChunkRequest(
        EndpointAccess source,
        EndpointAccess destination,
        List<FileTransfer> files,
        ChunkTuning tuning,
        boolean verifyChecksum,
        ProtectionLevel dataProtection,
        boolean preserveTimestamp) {

    /** @throws NullPointerException if a value is missing */
    public ChunkRequest {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(tuning, "tuning");
        Objects.requireNonNull(dataProtection, "dataProtection");
        files = List.copyOf(files);
    }

    /**
     * A chunk that leaves the destination's modification times as the writes make them.
     *
     * @param source how to log in to the source endpoint's server
     * @param destination how to log in to the destination endpoint's server
     * @param files the files, in the order to move them
     * @param tuning concurrency, parallelism, pipelining
     * @param verifyChecksum compare MD5 checksums after each file
     * @param dataProtection the least protection of every data channel of the chunk
     */
    public ChunkRequest(
            EndpointAccess source,
            EndpointAccess destination,
            List<FileTransfer> files,
            ChunkTuning tuning,
            boolean verifyChecksum,
            ProtectionLevel dataProtection) {
        this(source, destination, files, tuning, verifyChecksum, dataProtection, false);
    }
}
