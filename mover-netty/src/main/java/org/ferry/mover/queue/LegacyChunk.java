package org.ferry.mover.queue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.ferry.mover.access.EndpointAccess;
import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.mover.protocol.ByteRange;
import org.ferry.mover.runner.ChunkRequest;
import org.ferry.mover.runner.ChunkTuning;
import org.ferry.mover.runner.FileTransfer;

/**
 * A chunk message as versions 2 and 3 wrote it (the envelope and the chunk in one flat record,
 * files with their acknowledged ranges as text), read so that chunks still queued when a release
 * is upgraded are moved, never dropped. Only {@link MessageCodec} reads it.
 */
record LegacyChunk(
        int v,
        long chunkId,
        java.util.UUID taskId,
        Access source,
        Access destination,
        ChunkTuning tuning,
        boolean verifyChecksum,
        boolean encryptData,
        boolean preserveTimestamp,
        Long deadlineEpochMillis,
        Long credentialsExpireEpochMillis,
        List<File> files) {

    /** An endpoint's servers and login, as versions 2 and 3 wrote them. */
    record Access(
            String endpoint,
            List<Server> servers,
            String username,
            String sealedSecret,
            String secretContext,
            Map<String, String> trustRoots) {

        /** One server. */
        record Server(String url, String subject) {}

        EndpointAccess toAccess() {
            return new EndpointAccess(
                    endpoint,
                    servers.stream()
                            .map(s -> new EndpointAccess.Server(s.url(), s.subject()))
                            .toList(),
                    username,
                    sealedSecret,
                    secretContext,
                    trustRoots == null ? Map.of() : trustRoots);
        }
    }

    /** One file, as versions 2 and 3 wrote it (version 2 has no source time). */
    record File(
            long id,
            String sourcePath,
            String destinationPath,
            long sizeBytes,
            String acknowledged,
            int attempts,
            Long sourceModifiedEpochMillis) {

        FileTransfer toTransfer() {
            return new FileTransfer(
                    id,
                    sourcePath,
                    destinationPath,
                    sizeBytes,
                    acknowledged == null || acknowledged.isBlank() ? List.of() : ByteRange.parseList(acknowledged),
                    attempts,
                    sourceModifiedEpochMillis == null ? null : Instant.ofEpochMilli(sourceModifiedEpochMillis));
        }
    }

    /** @return the same chunk in this release's shape */
    ChunkMessage toMessage() {
        return new ChunkMessage(
                v,
                chunkId,
                taskId,
                deadlineEpochMillis,
                credentialsExpireEpochMillis,
                new ChunkRequest(
                        source.toAccess(),
                        destination.toAccess(),
                        files.stream().map(File::toTransfer).toList(),
                        tuning,
                        verifyChecksum,
                        encryptData ? ProtectionLevel.PRIVATE : ProtectionLevel.CLEAR,
                        preserveTimestamp));
    }
}
