package org.ferry.api.service;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import org.ferry.api.credential.ActivationRequiredException;
import org.ferry.api.credential.EndpointAccessService;
import org.ferry.api.document.DryRunDocument;
import org.ferry.api.document.TransferRequest;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.FilterRules;
import org.ferry.api.domain.SyncLevel;
import org.ferry.api.domain.TransferItem;
import org.ferry.api.error.ConflictException;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.error.NotFoundException;
import org.ferry.api.error.NotSupportedException;
import org.ferry.api.identity.Caller;
import org.ferry.api.lifecycle.TaskSubmittedEvent;
import org.ferry.api.store.NewTask;
import org.ferry.api.store.TaskStore;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Validates a transfer document field by field (every error names its field, e.g.
 * {@code DATA[0].source_path}; every option Ferry does not implement yet is refused by name),
 * stores an ACTIVE task and its items, and publishes {@link TaskSubmittedEvent} for the
 * scheduler.
 */
@Service
public class TransferService {

    private final TaskStore store;
    private final EndpointService endpoints;
    private final EndpointAccessService accesses;
    private final SubmissionIds submissionIds;
    private final ApiLimits limits;
    private final ApplicationEventPublisher publisher;
    private final Duration defaultDeadline;
    private final ObjectProvider<TransferPreview> preview;

    /** Filter rules per document: enough for any hand-written list, bounded for the crawl's sake. */
    static final int MAX_FILTER_RULES = 100;

    /**
     * @param store where the task is stored
     * @param endpoints endpoint lookup
     * @param accesses the submitter's activation of each endpoint
     * @param submissionIds duplicate detection
     * @param limits items per task
     * @param publisher where lifecycle events go
     * @param defaultDeadline the deadline of a task submitted without one, from its request time
     *     ({@code ferry.transfer.default-deadline}, ISO-8601 or e.g. {@code 24h}; Globus: 24 hours):
     *     transient faults are retried until the deadline, so every transfer task has one
     * @param preview the scheduler's dry-run planner (absent in an API-only context)
     */
    public TransferService(
            TaskStore store,
            EndpointService endpoints,
            EndpointAccessService accesses,
            SubmissionIds submissionIds,
            ApiLimits limits,
            ApplicationEventPublisher publisher,
            @Value("${ferry.transfer.default-deadline:24h}") Duration defaultDeadline,
            ObjectProvider<TransferPreview> preview) {
        this.store = store;
        this.endpoints = endpoints;
        this.accesses = accesses;
        this.submissionIds = submissionIds;
        this.limits = limits;
        this.publisher = publisher;
        this.defaultDeadline = defaultDeadline;
        this.preview = preview;
    }

    /**
     * Stores a transfer task and queues it; a submission id used before returns the earlier task.
     * A request without a deadline gets the default one.
     *
     * @param caller the submitting user
     * @param request the transfer document
     * @return the task
     * @throws InvalidRequestException naming the field for an invalid value
     * @throws NotSupportedException naming the field for an option Ferry does not implement yet
     * @throws NotFoundException for an endpoint the caller cannot see
     * @throws ConflictException for another user's submission id; {@code
     *     ClientError.ActivationRequired} naming the endpoint field when a {@code gsiftp://}
     *     endpoint is not activated (unless {@code skip_activation_check}: the task then waits
     *     INACTIVE)
     * @throws InvalidRequestException also naming {@code encrypt_data} when an endpoint cannot
     *     encrypt (a clear-text {@code ftp://} server), or the endpoint field when this server
     *     forbids clear-text endpoints
     * @throws org.springframework.dao.DataIntegrityViolationException if a concurrent submission
     *     with the same id committed first (the caller retries {@link SubmissionIds#earlier})
     */
    @Transactional
    public Submission submit(Caller caller, TransferRequest request) {
        Checked checked = check(request);
        String submissionId = SubmissionIds.chosen(request.submissionId());
        Optional<Submission> earlier = submissionIds.earlier(caller, submissionId);
        if (earlier.isPresent()) {
            return earlier.get();
        }
        Endpoint source = endpoints.resolve(caller, request.sourceEndpoint(), "source_endpoint");
        Endpoint destination = endpoints.resolve(caller, request.destinationEndpoint(), "destination_endpoint");
        endpoints.checkAllowed(source, "source_endpoint");
        endpoints.checkAllowed(destination, "destination_endpoint");
        boolean encryptData = Boolean.TRUE.equals(request.encryptData());
        if (encryptData) {
            for (Endpoint endpoint : List.of(source, destination)) {
                if (!endpoint.isGsi()) {
                    throw new InvalidRequestException(
                            "encrypt_data",
                            "encrypt_data needs endpoints that can encrypt data channels, and "
                                    + endpoint.getCanonicalName() + " is a clear-text endpoint (" + endpoint.getUrl()
                                    + "): use gsiftp:// endpoints or submit without encrypt_data");
                }
            }
        }
        if (!Boolean.TRUE.equals(request.skipActivationCheck())) {
            checkActivated(caller, source, "source_endpoint");
            checkActivated(caller, destination, "destination_endpoint");
        }
        Instant now = Instant.now();
        List<NewTask.Item> items = checked.items().stream()
                .map(item -> new NewTask.Item(item.getSourcePath(), item.getDestinationPath(), item.isRecursive()))
                .toList();
        UUID taskId = store.create(NewTask.transfer(
                submissionId,
                caller.name(),
                checked.label(),
                now,
                checked.deadline() != null ? checked.deadline() : now.plus(defaultDeadline),
                source,
                destination,
                new NewTask.TransferOptions(
                        checked.syncLevel(),
                        checked.verifyChecksum(),
                        encryptData,
                        checked.preserveTimestamp(),
                        checked.skipSourceErrors(),
                        checked.deleteDestinationExtra(),
                        checked.filterRules(),
                        // Globus: each notify_on_* is true when omitted
                        !Boolean.FALSE.equals(request.notifyOnSucceeded()),
                        !Boolean.FALSE.equals(request.notifyOnFailed()),
                        !Boolean.FALSE.equals(request.notifyOnInactive())),
                items));
        publisher.publishEvent(new TaskSubmittedEvent(taskId));
        return new Submission(taskId, submissionId, false);
    }

    private void checkActivated(Caller caller, Endpoint endpoint, String field) {
        if (endpoint.isGsi()) {
            try {
                accesses.usableCredential(caller.name(), endpoint);
            } catch (ActivationRequiredException e) {
                throw new ConflictException(ActivationRequiredException.CODE, field, e.getMessage());
            }
        }
    }

    /**
     * Checks a transfer document as {@link #submit} does and asks the scheduler what it would do
     * now (copy, skip, exclude, delete), changing nothing on either endpoint and storing nothing.
     *
     * @param caller the user
     * @param request the transfer document
     * @return the dry run's findings
     * @throws InvalidRequestException naming the field for an invalid value
     * @throws NotSupportedException naming the field for an option Ferry does not implement yet
     * @throws NotFoundException for an endpoint the caller cannot see
     * @throws org.ferry.api.error.EndpointException if an endpoint fails
     */
    public DryRunDocument dryRun(Caller caller, TransferRequest request) {
        Checked checked = check(request);
        if (request.submissionId() != null) {
            SubmissionIds.chosen(request.submissionId()); // checked only: a dry run uses none
        }
        Endpoint source = endpoints.resolve(caller, request.sourceEndpoint(), "source_endpoint");
        Endpoint destination = endpoints.resolve(caller, request.destinationEndpoint(), "destination_endpoint");
        TransferPreview previewer = preview.getIfAvailable();
        if (previewer == null) {
            throw new NotSupportedException(null, "This server has no scheduler to plan a dry run");
        }
        return previewer.preview(new TransferPreview.Plan(
                source,
                destination,
                caller.name(),
                checked.items(),
                checked.syncLevel(),
                checked.skipSourceErrors(),
                checked.deleteDestinationExtra(),
                checked.filterRules()));
    }

    /**
     * Checks a transfer document as {@link #submit} does, endpoints included, and stores nothing
     * (a timer's body is checked when the timer is made, not first at its first tick).
     *
     * @param caller the user
     * @param request the transfer document
     * @throws InvalidRequestException naming the field for an invalid value
     * @throws NotSupportedException naming the field for an option Ferry does not implement yet
     * @throws NotFoundException for an endpoint the caller cannot see
     */
    public void checkDocument(Caller caller, TransferRequest request) {
        check(request);
        endpoints.resolve(caller, request.sourceEndpoint(), "source_endpoint");
        endpoints.resolve(caller, request.destinationEndpoint(), "destination_endpoint");
    }

    /** A transfer document whose fields passed every check. */
    private record Checked(
            String label,
            Instant deadline,
            SyncLevel syncLevel,
            boolean verifyChecksum,
            boolean preserveTimestamp,
            boolean skipSourceErrors,
            boolean deleteDestinationExtra,
            FilterRules filterRules,
            List<TransferItem> items) {}

    private Checked check(TransferRequest request) {
        if (request == null) {
            throw new InvalidRequestException(null, "Request body must be a transfer document");
        }
        if (request.dataType() != null && !"transfer".equals(request.dataType())) {
            throw new InvalidRequestException("DATA_TYPE", "DATA_TYPE must be 'transfer'");
        }
        refuseUnsupported(request);
        String label = Labels.check(request.label());
        Instant deadline = TimeValues.parse("deadline", request.deadline());
        SyncLevel syncLevel = syncLevel(request.syncLevel());
        List<TransferItem> rows = itemsOf(request.items());
        boolean deleteExtra = Boolean.TRUE.equals(request.deleteDestinationExtra());
        if (deleteExtra && rows.stream().noneMatch(TransferItem::isRecursive)) {
            throw new InvalidRequestException(
                    "delete_destination_extra",
                    "delete_destination_extra applies to recursive items only, and DATA has none");
        }
        return new Checked(
                label,
                deadline,
                syncLevel,
                Boolean.TRUE.equals(request.verifyChecksum()),
                Boolean.TRUE.equals(request.preserveTimestamp()),
                Boolean.TRUE.equals(request.skipSourceErrors()),
                deleteExtra,
                filterRules(request.filterRules()),
                rows);
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

    private static void refuseUnsupported(TransferRequest r) {
        offUnlessTrue(
                "fail_on_quota_errors", r.failOnQuotaErrors(), "quota errors are not told apart from other faults yet");
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

    private List<TransferItem> itemsOf(List<TransferRequest.TransferItem> data) {
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
        List<TransferItem> rows = new ArrayList<>(data.size());
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
            if (item.externalChecksum() != null && !item.externalChecksum().isEmpty()) {
                throw new NotSupportedException(
                        prefix + ".external_checksum",
                        prefix + ".external_checksum: checking a given checksum is not implemented yet");
            }
            if (item.checksumAlgorithm() != null
                    && !item.checksumAlgorithm().isEmpty()
                    && !item.checksumAlgorithm().toUpperCase(Locale.ROOT).equals("MD5")) {
                throw new NotSupportedException(
                        prefix + ".checksum_algorithm",
                        prefix + ".checksum_algorithm: verify_checksum and sync level 3 compare MD5 only");
            }
            rows.add(new TransferItem(null, i, source, destination, Boolean.TRUE.equals(item.recursive())));
        }
        return rows;
    }

    private static SyncLevel syncLevel(String value) {
        if (value == null) {
            return null;
        }
        try {
            String v = value.trim();
            return v.matches("-?\\d+") ? SyncLevel.ofLevel(Integer.parseInt(v)) : SyncLevel.ofName(v);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException(
                    "sync_level", "sync_level must be 0-3 or exists, size, mtime, checksum; was '" + value + "'");
        }
    }
}
