package org.ferry.mover.queue;

import java.util.Objects;
import java.util.UUID;
import org.ferry.mover.runner.ChunkRequest;

/**
 * A chunk to move, as the work queue carries it: the chunk itself, in the one shape the chunk
 * runner takes ({@link ChunkRequest}: both endpoints' access, the files as
 * {@link org.ferry.mover.runner.FileTransfer}s, tuning, options), in an envelope that says which
 * chunk of which task it is and when it must stop. Self-contained, so a mover needs no database
 * (ARCHITECTURE.md "State and the work queue"). Keyed by {@code chunkId} on the chunks topic.
 * Endpoint secrets travel sealed ({@link org.ferry.mover.access.EndpointAccess}): a password, or
 * the proxy credential the owner activated a {@code gsiftp://} endpoint with, as AES-256-GCM
 * ciphertext under the installation's credential key, which every mover is given
 * ({@code ferry-mover --credential-key-file}); the broker never sees a secret in clear.
 *
 * @param v message version ({@link MessageCodec#VERSION})
 * @param chunkId the chunk's id, unique for the service's life; a chunk offered again after a
 *     lost mover gets a new id
 * @param taskId the task
 * @param deadlineEpochMillis the task's deadline (the mover stops by itself then), or null
 * @param credentialsExpireEpochMillis when the first of the endpoints' activated credentials
 *     expires (the mover stops the chunk just before, reporting {@code NO_CREDENTIALS}), or null
 * @param request the chunk: endpoints, files (smallest first), tuning and options
 */
public record ChunkMessage(
        int v,
        long chunkId,
        UUID taskId,
        Long deadlineEpochMillis,
        Long credentialsExpireEpochMillis,
        ChunkRequest request) {

    /** Checks the required values. */
    public ChunkMessage {
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(request, "request");
    }
}
