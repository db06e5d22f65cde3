package org.ferry.api.command;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.ferry.api.domain.FilterRules;
import org.ferry.api.domain.SyncLevel;
import org.ferry.mover.protocol.ChecksumAlgorithm;

/**
 * A transfer to submit, checked field by field: absolute, normalized paths (no {@code ..} climbing
 * above the root), a deadline not in the past, at least one item.
 *
 * @param submissionId the client's submission id (a UUID), or null to make one
 * @param sourceEndpoint the source endpoint's id or canonical name, as given
 * @param destinationEndpoint the destination endpoint's id or canonical name, as given
 * @param label the label, or null
 * @param deadline the deadline, or null for the service's default
 * @param items the items, in order
 * @param options what the task does beside its items
 * @param notifyOn whom the task's ends e-mail
 * @param skipActivationCheck accept the task although a {@code gsiftp://} endpoint is not
 *     activated (it waits INACTIVE)
 * @param additionalDestinationEndpoints Ferry's multicast extension ({@code
 *     ferry_additional_destination_endpoints}): further destination endpoints (ids or canonical
 *     names, as given) that get every file at its destination path too, the source read once;
 *     empty for a plain transfer
 */
public record TransferSubmission(
        String submissionId,
        String sourceEndpoint,
        String destinationEndpoint,
        String label,
        Instant deadline,
        List<Item> items,
        Options options,
        Notify notifyOn,
        boolean skipActivationCheck,
        List<String> additionalDestinationEndpoints) {

    /** Checks the required values and copies the lists. */
    public TransferSubmission {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(notifyOn, "notifyOn");
        items = List.copyOf(items);
        additionalDestinationEndpoints =
                additionalDestinationEndpoints == null ? List.of() : List.copyOf(additionalDestinationEndpoints);
        if (items.isEmpty()) {
            throw new IllegalArgumentException("a transfer has at least one item");
        }
    }

    /** @return true if the transfer has further destinations (Ferry's multicast extension) */
    public boolean isMulticast() {
        return !additionalDestinationEndpoints.isEmpty();
    }

    /**
     * One item: a file, or a directory moved with its contents.
     *
     * @param sourcePath absolute, normalized source path
     * @param destinationPath absolute, normalized destination path: the file itself, or the
     *     directory that receives a recursive item's contents
     * @param recursive whether the source is a directory to copy recursively
     * @param externalChecksum the checksum the user gave for a file item (lowercase hex in the
     *     task's algorithm), or null
     */
    public record Item(String sourcePath, String destinationPath, boolean recursive, String externalChecksum) {

        /** An item without a given checksum. */
        public Item(String sourcePath, String destinationPath, boolean recursive) {
            this(sourcePath, destinationPath, recursive, null);
        }
    }

    /**
     * The task's options.
     *
     * @param syncLevel the sync level, or null to always copy
     * @param verifyChecksum compare checksums after each file
     * @param preserveTimestamp give each destination file its source's modification time
     * @param encryptData PROT P on every data channel
     * @param skipSourceErrors skip missing or unreadable source paths
     * @param deleteDestinationExtra delete what the destination has under a recursive item and
     *     the source does not, after every file arrived
     * @param filterRules include/exclude rules for the crawl
     * @param failOnQuotaErrors a full destination or an exhausted quota fails the task at once
     *     (by default the task waits for space and retries until its deadline)
     * @param checksumAlgorithm what verify_checksum, sync level 3 and the items' external
     *     checksums compare; null: MD5
     * @param verifyTreeDigest after every file arrived, compare one digest of each recursive
     *     item's tree on the two servers ({@code ferry_verify_tree_digest})
     */
    public record Options(
            SyncLevel syncLevel,
            boolean verifyChecksum,
            boolean preserveTimestamp,
            boolean encryptData,
            boolean skipSourceErrors,
            boolean deleteDestinationExtra,
            FilterRules filterRules,
            boolean failOnQuotaErrors,
            ChecksumAlgorithm checksumAlgorithm,
            boolean verifyTreeDigest) {

        /** Defaults the algorithm to MD5. */
        public Options {
            if (checksumAlgorithm == null) {
                checksumAlgorithm = ChecksumAlgorithm.MD5;
            }
        }

        /** @return no sync level, no checksums, nothing skipped or deleted, no filters */
        public static Options plain() {
            return new Options(null, false, false, false, false, false, FilterRules.none(), false, null, false);
        }
    }

    /**
     * Whom the task's ends e-mail (Globus: each true unless the client says false).
     *
     * @param onSucceeded when it ends SUCCEEDED
     * @param onFailed when it ends FAILED
     * @param onInactive when it goes INACTIVE
     */
    public record Notify(boolean onSucceeded, boolean onFailed, boolean onInactive) {

        /** @return every e-mail on (the Globus default) */
        public static Notify all() {
            return new Notify(true, true, true);
        }
    }
}
