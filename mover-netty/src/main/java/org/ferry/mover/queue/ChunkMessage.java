package org.ferry.mover.queue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.ferry.mover.access.EndpointAccess;
import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.mover.protocol.ByteRange;
import org.ferry.mover.runner.ChunkRequest;
import org.ferry.mover.runner.ChunkTuning;
import org.ferry.mover.runner.FileTransfer;

/**
 * A chunk to move: self-contained, so a mover needs no database (ARCHITECTURE.md "State and the
 * work queue"). Keyed by {@code chunkId} on the chunks topic. Endpoint secrets travel sealed
 * ({@link EndpointAccess}): a password, or the proxy credential the owner activated a {@code
 * gsiftp://} endpoint with, as AES-256-GCM ciphertext under the installation's credential key,
 * which every mover is given ({@code ferry-mover --credential-key-file}); the broker never sees a
 * secret in clear.
 *
 * @param v message version ({@link MessageCodec#VERSION})
 * @param chunkId the chunk's id, unique for the service's life; a chunk offered again after a
 *     lost mover gets a new id
 * @param taskId the task
 * @param source how to log in to the source endpoint (its servers, login, sealed secret)
 * @param destination how to log in to the destination endpoint
 * @param tuning concurrency, parallelism, pipelining
 * @param verifyChecksum compare MD5 checksums after each file
 * @param encryptData PROT P on every data channel ({@code encrypt_data}); else the data channels
 *     are clear (authenticated with DCAU on GSI endpoints)
 * @param preserveTimestamp give each destination file its source's modification time
 *     ({@code preserve_timestamp}; since version 3, false when absent)
 * @param deadlineEpochMillis the task's deadline (the mover stops by itself then), or null
 * @param credentialsExpireEpochMillis when the first of the endpoints' activated credentials
 *     expires (the mover stops the chunk just before, reporting {@code NO_CREDENTIALS}), or null
 * @param files the files, smallest first
 */
public record ChunkMessage(
        int v,
        long chunkId,
        UUID taskId,
        Access source,
        Access destination,
        ChunkTuning tuning,
        boolean verifyChecksum,
        boolean encryptData,
        boolean preserveTimestamp,
        Long deadlineEpochMillis,
        Long credentialsExpireEpochMillis,
        List<File> files) {

    /** Checks the required values and copies the list. */
    public ChunkMessage {
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(destination, "destination");
        Objects.requireNonNull(tuning, "tuning");
        files = List.copyOf(files);
    }

    /**
     * An endpoint's servers and login, the JSON form of {@link EndpointAccess}.
     *
     * @param endpoint the endpoint's canonical name (for messages)
     * @param servers its servers, in order
     * @param username the login user, or null
     * @param sealedSecret the sealed password or credential, or null
     * @param secretContext what it was sealed for, or null
     * @param trustRoots extra trust directory files (name to base64), or empty
     */
    public record Access(
            String endpoint,
            List<Server> servers,
            String username,
            String sealedSecret,
            String secretContext,
            Map<String, String> trustRoots) {

        /**
         * One server.
         *
         * @param url {@code ftp://host:port} or {@code gsiftp://host:port}
         * @param subject the DN it must present, or null for the host rule
         */
        public record Server(String url, String subject) {}

        /** @return the access's JSON form */
        public static Access of(EndpointAccess access) {
            return new Access(
                    access.endpoint(),
                    access.servers().stream()
                            .map(s -> new Server(s.url(), s.subject()))
                            .toList(),
                    access.username(),
                    access.sealedSecret(),
                    access.secretContext(),
                    access.trustRoots());
        }

        /**
         * @return the access values
         * @throws IllegalArgumentException if a server URL is malformed or the servers mix schemes
         */
        public EndpointAccess toAccess() {
            return new EndpointAccess(
                    endpoint,
                    servers.stream()
                            .map(s -> new EndpointAccess.Server(s.url(), s.subject()))
                            .toList(),
                    username,
                    sealedSecret,
                    secretContext,
                    trustRoots);
        }

        @Override
        public String toString() {
            return toAccess().toString(); // never the sealed secret
        }
    }

    /**
     * One file of the chunk.
     *
     * @param id the file's (subtask's) id
     * @param sourcePath absolute source path
     * @param destinationPath absolute destination path
     * @param sizeBytes planned size
     * @param acknowledged ranges the destination acknowledged before ({@code a-b,c-d}, end exclusive), or empty
     * @param attempts attempts made before
     * @param sourceModifiedEpochMillis the source file's modification time as the planner listed
     *     it, or null when unknown (since version 3; a version 2 message has none)
     */
    public record File(
            long id,
            String sourcePath,
            String destinationPath,
            long sizeBytes,
            String acknowledged,
            int attempts,
            Long sourceModifiedEpochMillis) {

        /**
         * A file without a known source modification time.
         *
         * @param id the file's (subtask's) id
         * @param sourcePath absolute source path
         * @param destinationPath absolute destination path
         * @param sizeBytes planned size
         * @param acknowledged ranges acknowledged before, or empty
         * @param attempts attempts made before
         */
        public File(
                long id, String sourcePath, String destinationPath, long sizeBytes, String acknowledged, int attempts) {
            this(id, sourcePath, destinationPath, sizeBytes, acknowledged, attempts, null);
        }

        /** @return the file as the chunk runner takes it */
        public FileTransfer toTransfer() {
            List<ByteRange> ranges =
                    acknowledged == null || acknowledged.isBlank() ? List.of() : ByteRange.parseList(acknowledged);
            return new FileTransfer(
                    id,
                    sourcePath,
                    destinationPath,
                    sizeBytes,
                    ranges,
                    attempts,
                    sourceModifiedEpochMillis == null ? null : Instant.ofEpochMilli(sourceModifiedEpochMillis));
        }
    }

    /** @return the chunk as the chunk runner takes it */
    public ChunkRequest toRequest() {
        return new ChunkRequest(
                source.toAccess(),
                destination.toAccess(),
                files.stream().map(File::toTransfer).toList(),
                tuning,
                verifyChecksum,
                encryptData ? ProtectionLevel.PRIVATE : ProtectionLevel.CLEAR,
                preserveTimestamp);
    }
}
