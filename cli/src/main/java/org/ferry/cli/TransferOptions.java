package org.ferry.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The options of a transfer that {@code ferry transfer} and {@code ferry timer create} share (a
 * timer's body is a transfer document): sync level, checksums, timestamps, encryption, filter
 * rules, mirroring, skipped source errors. A picocli mixin.
 */
final class TransferOptions {

    @Option(
            names = {"-s", "--sync-level"},
            paramLabel = "LEVEL",
            converter = SyncLevel.Converter.class,
            description = "Skip files already at the destination by: exists, size, mtime, checksum (or 0-3).")
    private SyncLevel syncLevel;

    @Option(
            names = "--verify-checksum",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = "Compare source and destination checksums after each file (default: on).")
    private boolean verifyChecksum;

    @Option(
            names = "--checksum-algorithm",
            paramLabel = "ALG",
            description = "What --verify-checksum, --sync-level checksum and --external-checksum compare:"
                    + " MD5 (default), ADLER32, SHA1, SHA256, SHA512, CRC32C (the server checks the name).")
    private String checksumAlgorithm;

    @Option(
            names = {"--preserve-mtime", "--preserve-timestamp"},
            description = "Give each destination file its source's modification time (whole seconds).")
    private boolean preserveMtime;

    @Option(
            names = {"--encrypt", "--encrypt-data"},
            description = "Encrypt the data channels.")
    private boolean encrypt;

    private final List<String[]> filterRules = new ArrayList<>();

    @Option(
            names = "--include",
            paramLabel = "GLOB",
            description = "Include names matching GLOB (rules apply in the order given; first match wins).")
    void include(String glob) {
        filterRules.add(new String[] {"include", glob});
    }

    @Option(names = "--exclude", paramLabel = "GLOB", description = "Exclude names matching GLOB.")
    void exclude(String glob) {
        filterRules.add(new String[] {"exclude", glob});
    }

    @Option(
            names = "--delete-destination-extra",
            description = "Mirror: delete destination files the source does not have (recursive items).")
    private boolean deleteDestinationExtra;

    @Option(
            names = "--skip-source-errors",
            description = "Skip source paths that are missing or unreadable instead of failing.")
    private boolean skipSourceErrors;

    /**
     * Writes the options given into a transfer document.
     *
     * @param body the document
     */
    void write(ObjectNode body) {
        if (syncLevel != null) {
            body.put("sync_level", syncLevel.ordinal());
        }
        body.put("verify_checksum", verifyChecksum);
        if (checksumAlgorithm != null) {
            body.put("checksum_algorithm", checksumAlgorithm);
        }
        putIfTrue(body, "preserve_timestamp", preserveMtime);
        putIfTrue(body, "encrypt_data", encrypt);
        putIfTrue(body, "delete_destination_extra", deleteDestinationExtra);
        putIfTrue(body, "skip_source_errors", skipSourceErrors);
        if (!filterRules.isEmpty()) {
            ArrayNode rules = body.putArray("filter_rules");
            for (String[] rule : filterRules) {
                ObjectNode r = rules.addObject();
                r.put("DATA_TYPE", "filter_rule");
                r.put("method", rule[0]);
                r.put("name", rule[1]);
            }
        }
    }

    /** Sets {@code field} to true when {@code value} is, and leaves it out otherwise. */
    static void putIfTrue(ObjectNode body, String field, boolean value) {
        if (value) {
            body.put(field, true);
        }
    }
}
