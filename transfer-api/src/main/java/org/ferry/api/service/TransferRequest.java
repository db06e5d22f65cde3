package org.ferry.api.service;

import java.time.Instant;
import java.util.List;
import org.ferry.api.domain.SyncLevel;

/**
 * A validated transfer document.
 *
 * @param submissionId the client's submission id, or null to make one
 * @param sourceEndpoint source endpoint id or canonical name
 * @param destinationEndpoint destination endpoint id or canonical name
 * @param label label or null
 * @param deadline deadline or null
 * @param syncLevel sync level or null (always copy)
 * @param verifyChecksum compare checksums after each file
 * @param encryptData PROT P on every data channel
 * @param skipActivationCheck accept the task even if an endpoint is not activated (it then waits
 *     INACTIVE until it is)
 * @param items at least one item
 */
public record TransferRequest(
        String submissionId,
        String sourceEndpoint,
        String destinationEndpoint,
        String label,
        Instant deadline,
        SyncLevel syncLevel,
        boolean verifyChecksum,
        boolean encryptData,
        boolean skipActivationCheck,
        List<Item> items) {

    /**
     * One {@code DATA[]} entry.
     *
     * @param sourcePath absolute, normalized source path
     * @param destinationPath absolute, normalized destination path
     * @param recursive whether the source is a directory
     */
    public record Item(String sourcePath, String destinationPath, boolean recursive) {}
}
