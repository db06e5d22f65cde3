package org.ferry.api.store;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.FilterRules;
import org.ferry.api.domain.SyncLevel;
import org.ferry.api.domain.TaskType;

/**
 * A task to store ({@link TaskStore#create}): what was asked, with its endpoints resolved. Use
 * {@link #transfer} or {@link #delete}.
 *
 * @param type TRANSFER or DELETE
 * @param submissionId the client's submission id (unique)
 * @param ownerName the submitting user
 * @param label optional label
 * @param requestTime when it was submitted
 * @param deadline its deadline (every task has one)
 * @param sourceEndpointId the source endpoint (a delete task's endpoint)
 * @param sourceEndpoint its canonical name at submission
 * @param destinationEndpointId the destination endpoint, null for a delete task
 * @param destinationEndpoint its canonical name, null for a delete task
 * @param syncLevel the sync level, or null
 * @param verifyChecksum compare checksums after each file
 * @param encryptData PROT P on every data channel
 * @param preserveTimestamp give each destination file its source's modification time
 * @param skipSourceErrors skip missing or unreadable source paths
 * @param deleteDestinationExtra delete the destination's extras under recursive items
 * @param filterRules the filter rules, or null
 * @param deleteRecursive a delete task removes directories with their contents
 * @param ignoreMissing a delete task takes a missing path as done
 * @param notifyOnSucceeded e-mail the owner when it ends SUCCEEDED
 * @param notifyOnFailed e-mail the owner when it ends FAILED
 * @param notifyOnInactive e-mail the owner when it goes INACTIVE
 * @param transferItems a transfer's items in order (empty for a delete task)
 * @param deletePaths a delete task's paths in order (empty for a transfer)
 * @param failOnQuotaErrors a full destination or an exhausted quota fails the task at once
 * @param checksumAlgorithm what verify_checksum, sync level 3 and external checksums compare (a
 *     CKSM name); null: MD5
 * @param additionalDestinations a transfer's further destinations (Ferry's multicast extension),
 *     in order; empty for one destination
 * @param verifyTreeDigest compare each recursive item's tree digest on the two servers after
 *     every file arrived (Ferry's {@code ferry_verify_tree_digest})
 */
public record NewTask(
        TaskType type,
        String submissionId,
        String ownerName,
        String label,
        Instant requestTime,
        Instant deadline,
        UUID sourceEndpointId,
        String sourceEndpoint,
        UUID destinationEndpointId,
        String destinationEndpoint,
        SyncLevel syncLevel,
        boolean verifyChecksum,
        boolean encryptData,
        boolean preserveTimestamp,
        boolean skipSourceErrors,
        boolean deleteDestinationExtra,
        FilterRules filterRules,
        boolean deleteRecursive,
        boolean ignoreMissing,
        boolean notifyOnSucceeded,
        boolean notifyOnFailed,
        boolean notifyOnInactive,
        List<Item> transferItems,
        List<String> deletePaths,
        boolean failOnQuotaErrors,
        String checksumAlgorithm,
        List<Destination> additionalDestinations,
        boolean verifyTreeDigest) {

    /**
     * A further destination of a multicast transfer.
     *
     * @param endpointId the endpoint
     * @param endpoint its canonical name at submission
     */
    public record Destination(UUID endpointId, String endpoint) {}

    /** Checks the required values and copies the lists. */
    public NewTask {
        additionalDestinations = additionalDestinations == null ? List.of() : List.copyOf(additionalDestinations);
        if (checksumAlgorithm == null) {
            checksumAlgorithm = "MD5";
        }
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(submissionId, "submissionId");
        Objects.requireNonNull(ownerName, "ownerName");
        Objects.requireNonNull(requestTime, "requestTime");
        Objects.requireNonNull(sourceEndpointId, "sourceEndpointId");
        transferItems = List.copyOf(transferItems);
        deletePaths = List.copyOf(deletePaths);
    }

    /**
     * One item of a transfer.
     *
     * @param sourcePath absolute source path
     * @param destinationPath absolute destination path
     * @param recursive a directory moved with its contents
     * @param externalChecksum the hex checksum the user gave for a file item, or null
     */
    public record Item(String sourcePath, String destinationPath, boolean recursive, String externalChecksum) {

        /** An item without a given checksum. */
        public Item(String sourcePath, String destinationPath, boolean recursive) {
            this(sourcePath, destinationPath, recursive, null);
        }
    }

    /**
     * A transfer's options beside its endpoints and items.
     *
     * @param syncLevel the sync level, or null
     * @param verifyChecksum compare checksums after each file
     * @param encryptData PROT P on every data channel
     * @param preserveTimestamp give each destination file its source's modification time
     * @param skipSourceErrors skip missing or unreadable source paths
     * @param deleteDestinationExtra delete the destination's extras under recursive items
     * @param filterRules the filter rules, or null
     * @param notifyOnSucceeded e-mail the owner when it ends SUCCEEDED
     * @param notifyOnFailed e-mail the owner when it ends FAILED
     * @param notifyOnInactive e-mail the owner when it goes INACTIVE
     * @param failOnQuotaErrors a full destination or an exhausted quota fails the task at once
     * @param checksumAlgorithm what verify_checksum, sync level 3 and external checksums compare
     * @param verifyTreeDigest compare each recursive item's tree digest after every file arrived
     */
    public record TransferOptions(
            SyncLevel syncLevel,
            boolean verifyChecksum,
            boolean encryptData,
            boolean preserveTimestamp,
            boolean skipSourceErrors,
            boolean deleteDestinationExtra,
            FilterRules filterRules,
            boolean notifyOnSucceeded,
            boolean notifyOnFailed,
            boolean notifyOnInactive,
            boolean failOnQuotaErrors,
            String checksumAlgorithm,
            boolean verifyTreeDigest) {

        /** @return no sync level, no checksums, nothing skipped, deleted or e-mailed, MD5 */
        public static TransferOptions none() {
            return new TransferOptions(
                    null, false, false, false, false, false, null, false, false, false, false, null, false);
        }
    }

    /**
     * @return a new transfer task
     */
    public static NewTask transfer(
            String submissionId,
            String ownerName,
            String label,
            Instant requestTime,
            Instant deadline,
            Endpoint source,
            Endpoint destination,
            TransferOptions options,
            List<Item> items) {
        return transfer(
                submissionId, ownerName, label, requestTime, deadline, source, destination, options, items, List.of());
    }

    /**
     * @param additionalDestinations the further destinations (multicast), in order; empty for none
     * @return a new transfer task
     */
    public static NewTask transfer(
            String submissionId,
            String ownerName,
            String label,
            Instant requestTime,
            Instant deadline,
            Endpoint source,
            Endpoint destination,
            TransferOptions options,
            List<Item> items,
            List<Endpoint> additionalDestinations) {
        return new NewTask(
                TaskType.TRANSFER,
                submissionId,
                ownerName,
                label,
                requestTime,
                deadline,
                source.getId(),
                source.getCanonicalName(),
                destination.getId(),
                destination.getCanonicalName(),
                options.syncLevel(),
                options.verifyChecksum(),
                options.encryptData(),
                options.preserveTimestamp(),
                options.skipSourceErrors(),
                options.deleteDestinationExtra(),
                options.filterRules(),
                false,
                false,
                options.notifyOnSucceeded(),
                options.notifyOnFailed(),
                options.notifyOnInactive(),
                items,
                List.of(),
                options.failOnQuotaErrors(),
                options.checksumAlgorithm(),
                additionalDestinations.stream()
                        .map(e -> new Destination(e.getId(), e.getCanonicalName()))
                        .toList(),
                options.verifyTreeDigest());
    }

    /**
     * @return a new delete task (it sends no e-mail)
     */
    public static NewTask delete(
            String submissionId,
            String ownerName,
            String label,
            Instant requestTime,
            Instant deadline,
            Endpoint endpoint,
            boolean recursive,
            boolean ignoreMissing,
            List<String> paths) {
        return new NewTask(
                TaskType.DELETE,
                submissionId,
                ownerName,
                label,
                requestTime,
                deadline,
                endpoint.getId(),
                endpoint.getCanonicalName(),
                null,
                null,
                null,
                false,
                false,
                false,
                false,
                false,
                null,
                recursive,
                ignoreMissing,
                false,
                false,
                false,
                List.of(),
                paths,
                false,
                null,
                List.of(),
                false);
    }
}
