package org.ferry.mover.runner;

import java.util.List;
import java.util.Objects;
import org.ferry.mover.access.EndpointAccess;
import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.mover.protocol.ChecksumAlgorithm;

/**
 * One chunk to move: everything a mover needs, as plain values (secrets sealed).
 *
 * @param source how to log in to the source endpoint's server
 * @param destination how to log in to the destination endpoint's server
 * @param files the files, in the order to move them
 * @param tuning concurrency, parallelism, pipelining
 * @param verifyChecksum compare the checksums of source and destination after each file
 * @param dataProtection the least protection of every data channel of the chunk: PROT P when the
 *     task asked for {@code encrypt_data}, else C (data channels are still authenticated, DCAU A,
 *     on GSI endpoints)
 * @param preserveTimestamp give each destination file its source's modification time
 *     ({@code preserve_timestamp}) before it is reported arrived
 * @param checksumAlgorithm what {@code verify_checksum} and the files' {@code external_checksum}
 *     compare ({@code CKSM} name, {@link org.ferry.mover.protocol.ChecksumAlgorithm}); null reads
 *     as {@code MD5} (messages of version 4 and before)
 * @param additionalDestinations further endpoints that get every file at the same destination
 *     path (Ferry's multicast extension, {@code ferry_additional_destination_endpoints}): the
 *     first destination's server forwards each file to them ({@code SITE SETDISKSTACK
 *     file,gridftp_multicast:...}, one tree per file), and a file arrives only when every one of
 *     them holds it checked; empty (null in messages of version 5 and before) for one destination
 */
public record ChunkRequest(
        EndpointAccess source,
        EndpointAccess destination,
        List<FileTransfer> files,
        ChunkTuning tuning,
        boolean verifyChecksum,
        ProtectionLevel dataProtection,
        boolean preserveTimestamp,
        ChecksumAlgorithm checksumAlgorithm,
        List<EndpointAccess> additionalDestinations) {

    /** @throws NullPointerException if a value is missing */
    public ChunkRequest {
        additionalDestinations = additionalDestinations == null ? List.of() : List.copyOf(additionalDestinations);
        if (checksumAlgorithm == null) {
            checksumAlgorithm = ChecksumAlgorithm.MD5;
        }
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(tuning, "tuning");
        Objects.requireNonNull(dataProtection, "dataProtection");
        files = List.copyOf(files);
    }

    /**
     * A chunk to one destination.
     *
     * @param source how to log in to the source endpoint's server
     * @param destination how to log in to the destination endpoint's server
     * @param files the files, in the order to move them
     * @param tuning concurrency, parallelism, pipelining
     * @param verifyChecksum compare checksums after each file
     * @param dataProtection the least protection of every data channel of the chunk
     * @param preserveTimestamp give each destination file its source's modification time
     * @param checksumAlgorithm what is compared; null: MD5
     */
    public ChunkRequest(
            EndpointAccess source,
            EndpointAccess destination,
            List<FileTransfer> files,
            ChunkTuning tuning,
            boolean verifyChecksum,
            ProtectionLevel dataProtection,
            boolean preserveTimestamp,
            ChecksumAlgorithm checksumAlgorithm) {
        this(
                source,
                destination,
                files,
                tuning,
                verifyChecksum,
                dataProtection,
                preserveTimestamp,
                checksumAlgorithm,
                List.of());
    }

    /** @return true if the first destination forwards every file to {@link #additionalDestinations} */
    public boolean isMulticast() {
        return !additionalDestinations.isEmpty();
    }

    /**
     * A chunk that compares MD5 when it verifies checksums.
     *
     * @param source how to log in to the source endpoint's server
     * @param destination how to log in to the destination endpoint's server
     * @param files the files, in the order to move them
     * @param tuning concurrency, parallelism, pipelining
     * @param verifyChecksum compare MD5 checksums after each file
     * @param dataProtection the least protection of every data channel of the chunk
     * @param preserveTimestamp give each destination file its source's modification time
     */
    public ChunkRequest(
            EndpointAccess source,
            EndpointAccess destination,
            List<FileTransfer> files,
            ChunkTuning tuning,
            boolean verifyChecksum,
            ProtectionLevel dataProtection,
            boolean preserveTimestamp) {
        this(source, destination, files, tuning, verifyChecksum, dataProtection, preserveTimestamp, null);
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
