package org.ferry.api.store;

import java.time.Instant;
import java.util.UUID;
import org.ferry.api.domain.TaskType;

/**
 * What the scheduler needs of an ACTIVE task it drives (holds the lease of).
 *
 * @param id the task
 * @param type TRANSFER or DELETE
 * @param ownerName its user
 * @param planned true once its file rows are complete
 * @param deadline its deadline, or null
 * @param retryAfter nothing is dispatched before this time, or null
 * @param niceStatus what the task's {@code nice_status} shows as the pass reads it (why it waits)
 * @param sourceEndpointId source endpoint (a delete task's endpoint)
 * @param sourceEndpoint its canonical name at submission
 * @param destinationEndpointId destination endpoint, null for a delete task
 * @param destinationEndpoint its canonical name, null for a delete task
 * @param bytesTransferred bytes of arrived files plus bytes in flight
 * @param filesTransferred files arrived
 * @param mirrorPending true while {@code delete_destination_extra} still has to run (it runs once
 *     every file arrived, before the task may end)
 * @param options what a chunk of the task carries to its mover
 */
public record LeasedTask(
        UUID id,
        TaskType type,
        String ownerName,
        boolean planned,
        Instant deadline,
        Instant retryAfter,
        String niceStatus,
        UUID sourceEndpointId,
        String sourceEndpoint,
        UUID destinationEndpointId,
        String destinationEndpoint,
        long bytesTransferred,
        long filesTransferred,
        boolean mirrorPending,
        ChunkOptions options) {

    /**
     * The task's options every chunk of it carries.
     *
     * @param verifyChecksum compare checksums after each file
     * @param encryptData PROT P on every data channel
     * @param preserveTimestamp give each destination file its source's modification time
     * @param checksumAlgorithm what verify_checksum and external checksums compare (a CKSM name)
     */
    public record ChunkOptions(
            boolean verifyChecksum, boolean encryptData, boolean preserveTimestamp, String checksumAlgorithm) {

        /** Options that compare MD5. */
        public ChunkOptions(boolean verifyChecksum, boolean encryptData, boolean preserveTimestamp) {
            this(verifyChecksum, encryptData, preserveTimestamp, "MD5");
        }
    }

    /** @return the endpoint pair, for per-pair limits */
    public String endpointPair() {
        return sourceEndpointId + ">" + destinationEndpointId;
    }

    /** @return true for a transfer task (it has file rows and chunks) */
    public boolean isTransfer() {
        return type == TaskType.TRANSFER;
    }
}
