package org.ferry.api.document;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The body of {@code POST /transfer}: every field of the Globus transfer document
 * (service-semantics b.2). Fields Ferry does not implement yet are accepted only with their
 * "off" value (false, null, an empty list); any other value is a 400 naming the field, never
 * silently ignored. The {@code notify_on_*} fields default to true, as in Globus: the owner gets
 * an e-mail when the task ends or goes INACTIVE if the account has an address.
 *
 * @param dataType {@code transfer} or absent
 * @param submissionId a UUID from {@code GET /submission_id}, or null to make one
 * @param sourceEndpoint source endpoint id or canonical name
 * @param destinationEndpoint destination endpoint id or canonical name
 * @param label at most 128 characters, no line breaks, no leading/trailing blanks
 * @param deadline ISO-8601 time (UTC when it has no offset)
 * @param syncLevel 0-3 or {@code exists}, {@code size}, {@code mtime}, {@code checksum}; null always copies
 * @param verifyChecksum compare checksums after each file
 * @param preserveTimestamp give each destination file the source file's modification time (whole
 *     seconds, set with MFMT after the file arrived); null: false
 * @param encryptData encrypt every data channel of the task (PROT P); both endpoints must be
 *     {@code gsiftp://}, else a 400 naming {@code encrypt_data}
 * @param skipSourceErrors skip missing or unreadable source paths (listed in {@code skipped_errors})
 *     instead of failing the task
 * @param failOnQuotaErrors not supported yet
 * @param deleteDestinationExtra after every file arrived, delete what the destination has under a
 *     recursive item's destination path and the source does not (needs a recursive item)
 * @param notifyOnSucceeded e-mail the owner when the task succeeds (default true)
 * @param notifyOnFailed e-mail the owner when the task fails (default true)
 * @param notifyOnInactive e-mail the owner when the task goes INACTIVE (default true)
 * @param sourceLocalUser not supported (GCSv5 identity mapping)
 * @param destinationLocalUser not supported (GCSv5 identity mapping)
 * @param filterRules include/exclude rules applied in order while crawling recursive items
 *     (first match wins; no match: included); see {@link org.ferry.api.domain.FilterRules}
 * @param recursiveSymlinks only {@code ignore} (Ferry never follows links inside a tree)
 * @param perfCc not supported (Ferry tunes concurrency itself)
 * @param perfP not supported (Ferry tunes parallelism itself)
 * @param perfPp not supported (Ferry tunes pipelining itself)
 * @param perfUdt not supported
 * @param skipActivationCheck accept the task although a {@code gsiftp://} endpoint is not
 *     activated: it waits INACTIVE until the endpoint is (without it such a submission is a 409
 *     {@code ClientError.ActivationRequired} naming the endpoint field)
 * @param storeBasePathInfo not supported (timers)
 * @param items the transfer items, at least one
 * @param checksumAlgorithm what {@code verify_checksum}, sync level 3 and the items'
 *     {@code external_checksum} compare: {@code MD5} (default), {@code ADLER32}, {@code SHA1},
 *     {@code SHA256}, {@code SHA512} or {@code CRC32C}, in any case; the items may name it too (one
 *     algorithm per task)
 * @param additionalDestinationEndpoints a Ferry extension of the Globus document (Globus has no
 *     such field): further destination endpoints (ids or canonical names, at most 15, none twice,
 *     not the destination endpoint) that get every file at the same destination path, the source
 *     read once (multicast through the destination's server, docs/rest-api.md); null or empty for
 *     one destination
 * @param verifyTreeDigest a Ferry extension: after every file arrived, the service compares one
 *     digest of each recursive item's whole tree on the two servers ({@code CKSM SHA256-TREE});
 *     null or false for none
 */
public record TransferRequest(
        @JsonProperty("DATA_TYPE") String dataType,
        @JsonProperty("submission_id") String submissionId,
        @JsonProperty("source_endpoint") String sourceEndpoint,
        @JsonProperty("destination_endpoint") String destinationEndpoint,
        String label,
        String deadline,
        @JsonProperty("sync_level") String syncLevel,
        @JsonProperty("verify_checksum") Boolean verifyChecksum,
        @JsonProperty("preserve_timestamp") Boolean preserveTimestamp,
        @JsonProperty("encrypt_data") Boolean encryptData,
        @JsonProperty("skip_source_errors") Boolean skipSourceErrors,
        @JsonProperty("fail_on_quota_errors") Boolean failOnQuotaErrors,
        @JsonProperty("delete_destination_extra") Boolean deleteDestinationExtra,
        @JsonProperty("notify_on_succeeded") Boolean notifyOnSucceeded,
        @JsonProperty("notify_on_failed") Boolean notifyOnFailed,
        @JsonProperty("notify_on_inactive") Boolean notifyOnInactive,
        @JsonProperty("source_local_user") String sourceLocalUser,
        @JsonProperty("destination_local_user") String destinationLocalUser,
        @JsonProperty("filter_rules") List<FilterRule> filterRules,
        @JsonProperty("recursive_symlinks") String recursiveSymlinks,
        @JsonProperty("perf_cc") Integer perfCc,
        @JsonProperty("perf_p") Integer perfP,
        @JsonProperty("perf_pp") Integer perfPp,
        @JsonProperty("perf_udt") Boolean perfUdt,
        @JsonProperty("skip_activation_check") Boolean skipActivationCheck,
        @JsonProperty("store_base_path_info") Boolean storeBasePathInfo,
        @JsonProperty("DATA") List<TransferItem> items,
        @JsonProperty("checksum_algorithm") String checksumAlgorithm,

        @JsonProperty("ferry_additional_destination_endpoints")
        List<String> additionalDestinationEndpoints,

        @JsonProperty("ferry_verify_tree_digest") Boolean verifyTreeDigest) {

    /**
     * One {@code DATA[]} entry.
     *
     * @param dataType {@code transfer_item} ({@code transfer_symlink_item} is a 400)
     * @param sourcePath absolute source path
     * @param destinationPath absolute destination path: the file itself, or the directory that
     *     receives a recursive item's contents
     * @param recursive whether the source is a directory to copy recursively; null: false
     * @param externalChecksum a file item's checksum (hex, in the task's algorithm) that the
     *     destination's must equal (besides the source's); not on a recursive item
     * @param checksumAlgorithm the task's algorithm as this item names it (see the document's
     *     {@code checksum_algorithm}); every item naming one names the same
     */
    public record TransferItem(
            @JsonProperty("DATA_TYPE") String dataType,
            @JsonProperty("source_path") String sourcePath,
            @JsonProperty("destination_path") String destinationPath,
            Boolean recursive,
            @JsonProperty("external_checksum") String externalChecksum,
            @JsonProperty("checksum_algorithm") String checksumAlgorithm) {}

    /**
     * One {@code filter_rules[]} entry.
     *
     * @param dataType {@code filter_rule}
     * @param method {@code include} or {@code exclude}
     * @param name glob
     * @param type {@code file}, {@code dir} or null for both
     */
    public record FilterRule(@JsonProperty("DATA_TYPE") String dataType, String method, String name, String type) {}
}
