package org.ferry.api.store;

import java.time.Instant;
import java.util.UUID;

/**
 * What the scheduler needs of an ACTIVE task it drives.
 *
 * @param id the task
 * @param ownerName its user
 * @param planned true once its file rows are complete
 * @param deadline its deadline, or null
 * @param retryAfter nothing is dispatched before this time, or null
 * @param sourceEndpointId source endpoint
 * @param destinationEndpointId destination endpoint
 * @param bytesTransferred bytes of arrived files plus bytes in flight
 * @param filesTransferred files arrived
 * @param mirrorPending true while {@code delete_destination_extra} still has to run (it runs once
 *     every file arrived, before the task may end)
 */
public record LeasedTask(
        UUID id,
        String ownerName,
        boolean planned,
        Instant deadline,
        Instant retryAfter,
        UUID sourceEndpointId,
        UUID destinationEndpointId,
        long bytesTransferred,
        long filesTransferred,
        boolean mirrorPending) {

    /** @return the endpoint pair, for per-pair limits */
    public String endpointPair() {
        return sourceEndpointId + ">" + destinationEndpointId;
    }
}
