package org.ferry.api.web;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.ferry.api.command.DeleteSubmission;
import org.ferry.api.command.DryRun;
import org.ferry.api.command.TransferSubmission;
import org.ferry.api.document.DeleteRequest;
import org.ferry.api.document.DryRunDocument;
import org.ferry.api.document.TransferRequest;
import org.ferry.api.domain.FilterRules;
import org.ferry.api.domain.SyncLevel;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.error.NotSupportedException;
import org.ferry.api.service.ApiLimits;
import org.ferry.api.service.ApiPaths;
import org.ferry.api.service.Labels;
import org.ferry.api.service.SubmissionIds;
import org.ferry.api.service.TimeValues;
import org.ferry.api.service.TransferBodies;
import org.ferry.mover.protocol.ChecksumAlgorithm;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Maps the transfer and delete documents of the REST API (service-semantics b.2) to the domain's
 * {@link TransferSubmission} and {@link DeleteSubmission}, field by field: every field is honoured
 * or refused by name ({@code DATA[0].source_path}, {@code deadline}, ...), and every option Ferry
 * does not implement yet is accepted only with its "off" value. Also reads the transfer documents
 * timers store ({@link TransferBodies}) and writes a {@link DryRun} as its document.
 */
@Component
public class TransferDocuments implements TransferBodies {

    /** Filter rules per document: enough for any hand-written list, bounded for the crawl's sake. */
    static final int MAX_FILTER_RULES = 100;

    /** The multicast extension's field (Ferry's, not Globus's). */
    public static final String ADDITIONAL_DESTINATIONS = "ferry_additional_destination_endpoints";

    /** Ferry's extension that compares whole trees' digests after the files arrived (CKSM SHA256-TREE). */
    public static final String VERIFY_TREE_DIGEST = "ferry_verify_tree_digest";

    /** Further destinations per transfer: a tree of 16 servers (cc=2: four levels). */
    public static final int MAX_ADDITIONAL_DESTINATIONS = 15;

    private final ApiLimits limits;
    private final JsonMapper json;
    private final Clock clock;

    /**
     * @param limits items per task
     * @param json reads stored documents
     */
    @Autowired
    public TransferDocuments(ApiLimits limits, JsonMapper json) {
        this(limits, json, Clock.systemUTC());
    }

    TransferDocuments(ApiLimits limits, JsonMapper json, Clock clock) {
        this.limits = limits;
        this.json = json;
        this.clock = clock;
    }

    @Override
    public TransferSubmission read(String document) {
        try {
            return submission(json.readValue(document, TransferRequest.class));
        } catch (JacksonException e) {
            throw new InvalidRequestException(null, "Not a transfer document: " + e.getOriginalMessage());
        }
    }

    @Override
    public String write(TransferSubmission transfer) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("DATA_TYPE", "transfer");
        document.put("source_endpoint", transfer.sourceEndpoint());
        document.put("destination_endpoint", transfer.destinationEndpoint());
        if (transfer.label() != null) {
            document.put("label", transfer.label());
        }
        if (transfer.deadline() != null) {
            document.put("deadline", transfer.deadline().toString());
        }
        TransferSubmission.Options options = transfer.options();
        if (options.syncLevel() != null) {
            document.put("sync_level", options.syncLevel().name().toLowerCase(Locale.ROOT));
        }
        flag(document, "verify_checksum", options.verifyChecksum());
        flag(document, "preserve_timestamp", options.preserveTimestamp());
        flag(document, "encrypt_data", options.encryptData());
        flag(document, "skip_source_errors", options.skipSourceErrors());
        flag(document, "fail_on_quota_errors", options.failOnQuotaErrors());
        flag(document, "delete_destination_extra", options.deleteDestinationExtra());
        flag(document, VERIFY_TREE_DIGEST, options.verifyTreeDigest());
        if (options.checksumAlgorithm() != ChecksumAlgorithm.MD5) {
            document.put("checksum_algorithm", options.checksumAlgorithm().name());
        }
        if (options.filterRules() != null && !options.filterRules().isEmpty()) {
            List<Map<String, Object>> rules = new ArrayList<>();
            for (FilterRules.Rule rule : options.filterRules().rules()) {
                Map<String, Object> written = new LinkedHashMap<>();
                written.put("DATA_TYPE", "filter_rule");
                written.put("method", rule.method().name().toLowerCase(Locale.ROOT));
                written.put("name", rule.name());
                if (rule.type() != null) {
                    written.put("type", rule.type().name().toLowerCase(Locale.ROOT));
                }
                rules.add(written);
            }
            document.put("filter_rules", rules);
        }
        // Globus: each notify_on_* is true when omitted, so only a false one is written
        if (!transfer.notifyOn().onSucceeded()) {
            document.put("notify_on_succeeded", false);
        }
        if (!transfer.notifyOn().onFailed()) {
            document.put("notify_on_failed", false);
        }
        if (!transfer.notifyOn().onInactive()) {
            document.put("notify_on_inactive", false);
        }
        flag(document, "skip_activation_check", transfer.skipActivationCheck());
        if (transfer.isMulticast()) {
            document.put(ADDITIONAL_DESTINATIONS, transfer.additionalDestinationEndpoints());
        }
        List<Map<String, Object>> items = new ArrayList<>();
        for (TransferSubmission.Item item : transfer.items()) {
            Map<String, Object> written = new LinkedHashMap<>();
            written.put("DATA_TYPE", "transfer_item");
            written.put("source_path", item.sourcePath());
            written.put("destination_path", item.destinationPath());
            written.put("recursive", item.recursive());
            if (item.externalChecksum() != null) {
                written.put("external_checksum", item.externalChecksum());
            }
            items.add(written);
        }
        document.put("DATA", items);
        return json.writeValueAsString(document);
    }

    private static void flag(Map<String, Object> document, String field, boolean on) {
        if (on) {
            document.put(field, true);
        }
    }

    /**
     * @param request a transfer document
     * @return the submission it asks for
     * @throws InvalidRequestException naming the field for an invalid value (a deadline that has
     *     passed, a path that climbs above the root, ...)
     * @throws NotSupportedException naming the field for an option Ferry does not implement yet
     */
    public TransferSubmission submission(TransferRequest request) {
        if (request == null) {
            throw new InvalidRequestException(null, "Request body must be a transfer document");
        }
        if (request.dataType() != null && !"transfer".equals(request.dataType())) {
            throw new InvalidRequestException("DATA_TYPE", "DATA_TYPE must be 'transfer'");
        }
        refuseUnsupported(request);
        String label = Labels.check(request.label());
        Instant deadline = deadline(request.deadline());
        SyncLevel syncLevel = syncLevel(request.syncLevel());
        ChecksumAlgorithm algorithm = checksumAlgorithm(request);
        List<TransferSubmission.Item> items = items(request.items(), algorithm);
        boolean deleteExtra = Boolean.TRUE.equals(request.deleteDestinationExtra());
        if (deleteExtra && items.stream().noneMatch(TransferSubmission.Item::recursive)) {
            throw new InvalidRequestException(
                    "delete_destination_extra",
                    "delete_destination_extra applies to recursive items only, and DATA has none");
        }
        List<String> additional = additionalDestinations(request, syncLevel, deleteExtra);
        boolean treeDigest = verifyTreeDigest(request, items, additional);
        return new TransferSubmission(
                submissionId(request.submissionId()),
                request.sourceEndpoint(),
                request.destinationEndpoint(),
                label,
                deadline,
                items,
                new TransferSubmission.Options(
                        syncLevel,
                        Boolean.TRUE.equals(request.verifyChecksum()),
                        Boolean.TRUE.equals(request.preserveTimestamp()),
                        Boolean.TRUE.equals(request.encryptData()),
                        Boolean.TRUE.equals(request.skipSourceErrors()),
                        deleteExtra,
                        filterRules(request.filterRules()),
                        Boolean.TRUE.equals(request.failOnQuotaErrors()),
                        algorithm,
                        treeDigest),
                // Globus: each notify_on_* is true when omitted
                new TransferSubmission.Notify(
                        !Boolean.FALSE.equals(request.notifyOnSucceeded()),
                        !Boolean.FALSE.equals(request.notifyOnFailed()),
                        !Boolean.FALSE.equals(request.notifyOnInactive())),
                Boolean.TRUE.equals(request.skipActivationCheck()),
                additional);
    }

    /**
     * The tree digest extension: it compares whole trees, so it needs a recursive item and none of
     * the options that leave a tree's files out (filter rules, skipped source errors) or send them
     * to more than one destination.
     *
     * @return whether the task compares tree digests
     * @throws InvalidRequestException naming {@value #VERIFY_TREE_DIGEST} for an option it cannot go
     *     with
     */
    private static boolean verifyTreeDigest(
            TransferRequest request, List<TransferSubmission.Item> items, List<String> additional) {
        if (!Boolean.TRUE.equals(request.verifyTreeDigest())) {
            return false;
        }
        String field = VERIFY_TREE_DIGEST;
        if (items.stream().noneMatch(TransferSubmission.Item::recursive)) {
            throw new InvalidRequestException(
                    field,
                    field + " compares directory trees: DATA needs a recursive item (verify_checksum for files)");
        }
        String why = " cannot go with " + field + " (it compares every file of each tree, at one destination)";
        if (request.filterRules() != null && !request.filterRules().isEmpty()) {
            throw new InvalidRequestException(field, "filter_rules" + why);
        }
        if (Boolean.TRUE.equals(request.skipSourceErrors())) {
            throw new InvalidRequestException(field, "skip_source_errors" + why);
        }
        if (!additional.isEmpty()) {
            throw new InvalidRequestException(field, ADDITIONAL_DESTINATIONS + why);
        }
        return true;
    }

    /**
     * The multicast extension: 1..15 endpoints, none twice nor the destination itself, and none of
     * the options that act on one destination's listing or data channels (the tree forwards with
     * its servers' own settings, and the planner looks at the first destination only).
     *
     * @return the further destinations as given; empty when the field is absent or empty
     * @throws InvalidRequestException naming the field (or its entry) for a bad list or an option
     *     it cannot go with
     */
    private static List<String> additionalDestinations(
            TransferRequest request, SyncLevel syncLevel, boolean deleteExtra) {
        List<String> given = request.additionalDestinationEndpoints();
        if (given == null || given.isEmpty()) {
            return List.of();
        }
        String field = ADDITIONAL_DESTINATIONS;
        if (given.size() > MAX_ADDITIONAL_DESTINATIONS) {
            throw new InvalidRequestException(
                    field, field + " holds " + given.size() + " endpoints; at most " + MAX_ADDITIONAL_DESTINATIONS);
        }
        List<String> seen = new ArrayList<>();
        for (int i = 0; i < given.size(); i++) {
            String endpoint = given.get(i);
            String entry = field + "[" + i + "]";
            if (endpoint == null || endpoint.isBlank()) {
                throw new InvalidRequestException(entry, entry + " must be an endpoint id or canonical name");
            }
            if (endpoint.equals(request.destinationEndpoint()) || seen.contains(endpoint)) {
                throw new InvalidRequestException(
                        entry, entry + ": " + endpoint + " is a destination already (each destination once)");
            }
            seen.add(endpoint);
        }
        String why = " cannot go with " + field
                + " (a multicast transfer copies every file to every destination, checked at each)";
        if (syncLevel != null) {
            throw new InvalidRequestException(field, "sync_level" + why);
        }
        if (deleteExtra) {
            throw new InvalidRequestException(field, "delete_destination_extra" + why);
        }
        if (Boolean.TRUE.equals(request.preserveTimestamp())) {
            throw new InvalidRequestException(field, "preserve_timestamp" + why);
        }
        if (Boolean.TRUE.equals(request.encryptData())) {
            throw new InvalidRequestException(
                    field, "encrypt_data" + why + ": the servers forward to each other unencrypted");
        }
        return List.copyOf(seen);
    }

    /**
     * @param request a delete document
     * @return the submission it asks for
     * @throws InvalidRequestException naming the field for an invalid value
     * @throws NotSupportedException naming the field for an option Ferry does not implement yet
     */
    public DeleteSubmission submission(DeleteRequest request) {
        if (request == null) {
            throw new InvalidRequestException(null, "Request body must be a delete document");
        }
        if (request.dataType() != null && !"delete".equals(request.dataType())) {
            throw new InvalidRequestException("DATA_TYPE", "DATA_TYPE must be 'delete'");
        }
        String submissionId = submissionId(request.submissionId());
        if (Boolean.TRUE.equals(request.interpretGlobs())) {
            throw new NotSupportedException(
                    "interpret_globs", "interpret_globs: glob patterns are not implemented yet");
        }
        String mail = "a delete task sends no e-mail (transfer tasks do); send false or leave it out";
        offUnlessTrue("notify_on_succeeded", request.notifyOnSucceeded(), mail);
        offUnlessTrue("notify_on_failed", request.notifyOnFailed(), mail);
        offUnlessTrue("notify_on_inactive", request.notifyOnInactive(), mail);
        absent("local_user", request.localUser(), "local user mapping is a GCSv5 feature Ferry lacks");
        String label = Labels.check(request.label());
        Instant deadline = deadline(request.deadline());
        List<DeleteRequest.DeleteItem> data = request.items();
        if (data == null || data.isEmpty()) {
            throw new InvalidRequestException("DATA", "DATA must hold at least one delete_item");
        }
        if (data.size() > limits.maxItemsPerTask()) {
            throw new InvalidRequestException(
                    "DATA", "DATA holds " + data.size() + " items; at most " + limits.maxItemsPerTask() + " per task");
        }
        List<String> paths = new ArrayList<>(data.size());
        for (int i = 0; i < data.size(); i++) {
            String prefix = "DATA[" + i + "]";
            DeleteRequest.DeleteItem item = data.get(i);
            if (item == null) {
                throw new InvalidRequestException(prefix, prefix + " must be a delete_item object");
            }
            if (item.dataType() != null && !"delete_item".equals(item.dataType())) {
                throw new InvalidRequestException(prefix + ".DATA_TYPE", prefix + ".DATA_TYPE must be 'delete_item'");
            }
            String path = ApiPaths.absolute(prefix + ".path", item.path());
            if (path.equals("/")) {
                throw new InvalidRequestException(prefix + ".path", prefix + ".path: the root cannot be deleted");
            }
            paths.add(path);
        }
        return new DeleteSubmission(
                submissionId,
                request.endpoint(),
                label,
                deadline,
                paths,
                Boolean.TRUE.equals(request.recursive()),
                Boolean.TRUE.equals(request.ignoreMissing()),
                Boolean.TRUE.equals(request.skipActivationCheck()));
    }

    /**
     * @param dryRun what a transfer would do
     * @return its {@code transfer_dry_run} document
     */
    public static DryRunDocument document(DryRun dryRun) {
        return new DryRunDocument(
                "transfer_dry_run",
                dryRun.sourceEndpoint(),
                dryRun.destinationEndpoint(),
                dryRun.filesToCopy(),
                dryRun.bytesToCopy(),
                dryRun.filesSkipped(),
                dryRun.excluded(),
                dryRun.skippedErrors(),
                dryRun.deletions(),
                dryRun.truncated(),
                dryRun.entries().stream()
                        .map(e -> new DryRunDocument.Entry(
                                "dry_run_entry",
                                e.action(),
                                e.type(),
                                e.sourcePath(),
                                e.destinationPath(),
                                e.sizeBytes()))
                        .toList(),
                dryRun.additionalDestinationEndpoints());
    }

    /** @return the submission id sent (checked to be a UUID), or null when none was */
    private static String submissionId(String sent) {
        return sent == null || sent.isEmpty() ? null : SubmissionIds.chosen(sent);
    }

    /** A deadline is a time to come: one that has passed would only fail the task later. */
    private Instant deadline(String text) {
        Instant deadline = TimeValues.parse("deadline", text);
        if (deadline != null && !deadline.isAfter(clock.instant())) {
            throw new InvalidRequestException(
                    "deadline", "deadline " + text + " has passed: give a time in the future, or none");
        }
        return deadline;
    }

    private static void refuseUnsupported(TransferRequest r) {
        absent("source_local_user", r.sourceLocalUser(), "local user mapping is a GCSv5 feature Ferry lacks");
        absent("destination_local_user", r.destinationLocalUser(), "local user mapping is a GCSv5 feature Ferry lacks");
        if (r.recursiveSymlinks() != null && !r.recursiveSymlinks().equals("ignore")) {
            throw new NotSupportedException(
                    "recursive_symlinks", "recursive_symlinks: Ferry only ignores links inside a tree ('ignore')");
        }
        String tuning = "Ferry tunes concurrency, parallelism and pipelining itself";
        absent("perf_cc", r.perfCc(), tuning);
        absent("perf_p", r.perfP(), tuning);
        absent("perf_pp", r.perfPp(), tuning);
        offUnlessTrue("perf_udt", r.perfUdt(), "UDT is not supported");
        offUnlessTrue(
                "store_base_path_info",
                r.storeBasePathInfo(),
                "store_base_path_info belongs to timers, which come later");
    }

    private static void offUnlessTrue(String field, Boolean value, String why) {
        if (Boolean.TRUE.equals(value)) {
            throw new NotSupportedException(field, field + ": " + why);
        }
    }

    private static void absent(String field, Object value, String why) {
        if (value != null && !(value instanceof String s && s.isEmpty())) {
            throw new NotSupportedException(field, field + ": " + why);
        }
    }

    /**
     * The task's checksum algorithm: the document's {@code checksum_algorithm}, else the first
     * item's, else MD5. Ferry compares one algorithm per task: an item naming another is a 400.
     */
    private static ChecksumAlgorithm checksumAlgorithm(TransferRequest request) {
        ChecksumAlgorithm algorithm = algorithm("checksum_algorithm", request.checksumAlgorithm());
        String decidedBy = algorithm == null ? null : "checksum_algorithm";
        List<TransferRequest.TransferItem> data = request.items() == null ? List.of() : request.items();
        for (int i = 0; i < data.size(); i++) {
            TransferRequest.TransferItem item = data.get(i);
            String field = "DATA[" + i + "].checksum_algorithm";
            ChecksumAlgorithm named = item == null ? null : algorithm(field, item.checksumAlgorithm());
            if (named == null) {
                continue;
            }
            if (algorithm == null) {
                algorithm = named;
                decidedBy = field;
            } else if (named != algorithm) {
                throw new InvalidRequestException(
                        field,
                        field + " is " + named + " but " + decidedBy + " is " + algorithm
                                + ": Ferry compares one checksum algorithm per task");
            }
        }
        return algorithm == null ? ChecksumAlgorithm.MD5 : algorithm;
    }

    /** @return the named algorithm, or null when the value is absent or empty */
    private static ChecksumAlgorithm algorithm(String field, String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        ChecksumAlgorithm algorithm = ChecksumAlgorithm.parse(value);
        if (algorithm == null) {
            throw new InvalidRequestException(
                    field,
                    field + " '" + value + "' is not one of " + Arrays.toString(ChecksumAlgorithm.values())
                            + " (any case)");
        }
        return algorithm;
    }

    /**
     * @return the item's {@code external_checksum} in lowercase, or null when absent
     * @throws InvalidRequestException naming the field on a recursive item or for a value that is
     *     not a hex value of the algorithm's length
     */
    private static String externalChecksum(
            String prefix, TransferRequest.TransferItem item, ChecksumAlgorithm algorithm) {
        String value = item.externalChecksum();
        if (value == null || value.isEmpty()) {
            return null;
        }
        String field = prefix + ".external_checksum";
        if (Boolean.TRUE.equals(item.recursive())) {
            throw new InvalidRequestException(
                    field, field + " applies to file items only, and " + prefix + " is recursive");
        }
        if (!algorithm.isValue(value)) {
            throw new InvalidRequestException(
                    field,
                    field + " must be " + algorithm.hexDigits() + " hex digits (" + algorithm + "), not '" + value
                            + "'");
        }
        return value.toLowerCase(Locale.ROOT);
    }

    private List<TransferSubmission.Item> items(List<TransferRequest.TransferItem> data, ChecksumAlgorithm algorithm) {
        if (data == null) {
            throw new InvalidRequestException("DATA", "DATA is required: a list of transfer items");
        }
        if (data.isEmpty()) {
            throw new InvalidRequestException("DATA", "DATA must hold at least one transfer item");
        }
        if (data.size() > limits.maxItemsPerTask()) {
            throw new InvalidRequestException(
                    "DATA", "DATA holds " + data.size() + " items; at most " + limits.maxItemsPerTask() + " per task");
        }
        List<TransferSubmission.Item> items = new ArrayList<>(data.size());
        for (int i = 0; i < data.size(); i++) {
            String prefix = "DATA[" + i + "]";
            TransferRequest.TransferItem item = data.get(i);
            if (item == null) {
                throw new InvalidRequestException(prefix, prefix + " must be a transfer_item object");
            }
            if ("transfer_symlink_item".equals(item.dataType())) {
                throw new NotSupportedException(
                        prefix + ".DATA_TYPE",
                        prefix + ": symlink items are not supported (Ferry never creates links)");
            }
            if (item.dataType() != null && !"transfer_item".equals(item.dataType())) {
                throw new InvalidRequestException(prefix + ".DATA_TYPE", prefix + ".DATA_TYPE must be 'transfer_item'");
            }
            String source = ApiPaths.absolute(prefix + ".source_path", item.sourcePath());
            String destination = ApiPaths.absolute(prefix + ".destination_path", item.destinationPath());
            items.add(new TransferSubmission.Item(
                    source,
                    destination,
                    Boolean.TRUE.equals(item.recursive()),
                    externalChecksum(prefix, item, algorithm)));
        }
        return items;
    }

    private static FilterRules filterRules(List<TransferRequest.FilterRule> rules) {
        if (rules == null || rules.isEmpty()) {
            return FilterRules.none();
        }
        if (rules.size() > MAX_FILTER_RULES) {
            throw new InvalidRequestException(
                    "filter_rules", "filter_rules holds " + rules.size() + " rules; at most " + MAX_FILTER_RULES);
        }
        List<FilterRules.Rule> checked = new ArrayList<>(rules.size());
        for (int i = 0; i < rules.size(); i++) {
            String prefix = "filter_rules[" + i + "]";
            TransferRequest.FilterRule rule = rules.get(i);
            if (rule == null) {
                throw new InvalidRequestException(prefix, prefix + " must be a filter_rule object");
            }
            if (rule.dataType() != null && !"filter_rule".equals(rule.dataType())) {
                throw new InvalidRequestException(prefix + ".DATA_TYPE", prefix + ".DATA_TYPE must be 'filter_rule'");
            }
            FilterRules.Method method;
            try {
                method = FilterRules.method(String.valueOf(rule.method()));
            } catch (IllegalArgumentException e) {
                throw new InvalidRequestException(
                        prefix + ".method",
                        prefix + ".method must be 'include' or 'exclude'; was '" + rule.method() + "'");
            }
            FilterRules.Type type;
            try {
                type = FilterRules.type(rule.type());
            } catch (IllegalArgumentException e) {
                throw new InvalidRequestException(
                        prefix + ".type", prefix + ".type must be 'file', 'dir' or absent; was '" + rule.type() + "'");
            }
            checked.add(new FilterRules.Rule(method, type, rule.name()));
            try {
                FilterRules.of(List.of(checked.get(i)));
            } catch (IllegalArgumentException e) {
                throw new InvalidRequestException(prefix + ".name", prefix + ".name: " + e.getMessage());
            }
        }
        return FilterRules.of(checked);
    }

    private static SyncLevel syncLevel(String value) {
        if (value == null) {
            return null;
        }
        try {
            return SyncLevel.parse(value);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(
                    "sync_level", "sync_level must be 0-3 or exists, size, mtime, checksum; was '" + value + "'");
        }
    }
}
