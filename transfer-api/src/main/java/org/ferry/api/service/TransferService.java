package org.ferry.api.service;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.ferry.api.command.DryRun;
import org.ferry.api.command.TransferSubmission;
import org.ferry.api.credential.ActivationRequiredException;
import org.ferry.api.credential.EndpointAccessService;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.error.ConflictException;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.error.NotFoundException;
import org.ferry.api.error.NotSupportedException;
import org.ferry.api.identity.Caller;
import org.ferry.api.lifecycle.TaskSubmittedEvent;
import org.ferry.api.store.NewTask;
import org.ferry.api.store.TaskStore;
import org.ferry.mover.server.multicast.MulticastTree;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Stores a checked transfer ({@link TransferSubmission}) as an ACTIVE task and its items once its
 * endpoints are resolved and allowed (every error names its field, e.g. {@code source_endpoint},
 * {@code encrypt_data}), and publishes {@link TaskSubmittedEvent} for the scheduler; asks the
 * scheduler for a dry run.
 */
@Service
public class TransferService {

    private final TaskStore store;
    private final EndpointService endpoints;
    private final EndpointAccessService accesses;
    private final SubmissionIds submissionIds;
    private final ApplicationEventPublisher publisher;
    private final Duration defaultDeadline;
    private final Optional<TransferPreview> preview;
    private final FileOperationService servers;

    /**
     * @param store where the task is stored
     * @param endpoints endpoint lookup
     * @param accesses the submitter's activation of each endpoint
     * @param submissionIds duplicate detection
     * @param publisher where lifecycle events go
     * @param defaultDeadline the deadline of a task submitted without one, from its request time
     *     ({@code ferry.transfer.default-deadline}, ISO-8601 or e.g. {@code 24h}; Globus: 24 hours):
     *     transient faults are retried until the deadline, so every transfer task has one
     * @param preview the scheduler's dry-run planner (absent in an API-only context)
     * @param servers asks a multicast transfer's destination server whether it forwards
     */
    public TransferService(
            TaskStore store,
            EndpointService endpoints,
            EndpointAccessService accesses,
            SubmissionIds submissionIds,
            ApplicationEventPublisher publisher,
            @Value("${ferry.transfer.default-deadline:24h}") Duration defaultDeadline,
            Optional<TransferPreview> preview,
            FileOperationService servers) {
        this.servers = servers;
        this.store = store;
        this.endpoints = endpoints;
        this.accesses = accesses;
        this.submissionIds = submissionIds;
        this.publisher = publisher;
        this.defaultDeadline = defaultDeadline;
        this.preview = preview;
    }

    /**
     * Stores a transfer task and queues it; a submission id used before returns the earlier task.
     * A submission without a deadline gets the default one.
     *
     * @param caller the submitting user
     * @param transfer the checked transfer
     * @return the task
     * @throws NotFoundException for an endpoint the caller cannot see
     * @throws ConflictException for another user's submission id; {@code
     *     ClientError.ActivationRequired} naming the endpoint field when a {@code gsiftp://}
     *     endpoint is not activated (unless {@code skip_activation_check}: the task then waits
     *     INACTIVE)
     * @throws InvalidRequestException naming {@code encrypt_data} when an endpoint cannot encrypt
     *     (a clear-text {@code ftp://} server), or the endpoint field when this server forbids
     *     clear-text endpoints
     * @throws org.springframework.dao.DataIntegrityViolationException if a concurrent submission
     *     with the same id committed first (the caller retries {@link SubmissionIds#earlier})
     */
    @Transactional
    public Submission submit(Caller caller, TransferSubmission transfer) {
        String submissionId = SubmissionIds.chosen(transfer.submissionId());
        Optional<Submission> earlier = submissionIds.earlier(caller, transfer.submissionId());
        if (earlier.isPresent()) {
            return earlier.get();
        }
        Endpoint source = endpoints.resolve(caller, transfer.sourceEndpoint(), "source_endpoint");
        Endpoint destination = endpoints.resolve(caller, transfer.destinationEndpoint(), "destination_endpoint");
        endpoints.checkAllowed(source, "source_endpoint");
        endpoints.checkAllowed(destination, "destination_endpoint");
        TransferSubmission.Options options = transfer.options();
        if (options.encryptData()) {
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
        if (!transfer.skipActivationCheck()) {
            checkActivated(caller, source, "source_endpoint");
            checkActivated(caller, destination, "destination_endpoint");
        }
        List<Endpoint> additional = additionalDestinations(caller, transfer, destination);
        if (options.verifyTreeDigest()) {
            checkTreeDigests(caller, source, destination);
        }
        Instant now = Instant.now();
        UUID taskId = store.create(NewTask.transfer(
                submissionId,
                caller.name(),
                transfer.label(),
                now,
                transfer.deadline() != null ? transfer.deadline() : now.plus(defaultDeadline),
                source,
                destination,
                new NewTask.TransferOptions(
                        options.syncLevel(),
                        options.verifyChecksum(),
                        options.encryptData(),
                        options.preserveTimestamp(),
                        options.skipSourceErrors(),
                        options.deleteDestinationExtra(),
                        options.filterRules(),
                        transfer.notifyOn().onSucceeded(),
                        transfer.notifyOn().onFailed(),
                        transfer.notifyOn().onInactive(),
                        options.failOnQuotaErrors(),
                        options.checksumAlgorithm().name(),
                        options.verifyTreeDigest()),
                transfer.items().stream()
                        .map(item -> new NewTask.Item(
                                item.sourcePath(), item.destinationPath(), item.recursive(), item.externalChecksum()))
                        .toList(),
                additional));
        publisher.publishEvent(new TaskSubmittedEvent(taskId));
        return new Submission(taskId, submissionId, false);
    }

    /**
     * The multicast extension's endpoints, resolved and checked: each visible, allowed, activated
     * (unless {@code skip_activation_check}), {@code ftp://} or {@code gsiftp://} ({@code gsiftp://}
     * only behind a {@code gsiftp://} destination, whose server forwards with its host
     * credential); and the destination's server must announce that it forwards ({@link
     * #MULTICAST_FEATURE} in FEAT, {@code ferry-gridftp --multicast}): a transfer is never sent to
     * fewer destinations than asked.
     *
     * @return the further destinations, in order; empty for a plain transfer
     * @throws InvalidRequestException naming {@code ferry_additional_destination_endpoints} (or an
     *     entry) for an endpoint that cannot take part or a destination server that does not forward
     */
    private List<Endpoint> additionalDestinations(Caller caller, TransferSubmission transfer, Endpoint destination) {
        if (!transfer.isMulticast()) {
            return List.of();
        }
        String field = "ferry_additional_destination_endpoints";
        List<Endpoint> additional = new ArrayList<>();
        for (int i = 0; i < transfer.additionalDestinationEndpoints().size(); i++) {
            String entry = field + "[" + i + "]";
            Endpoint endpoint = endpoints.resolve(
                    caller, transfer.additionalDestinationEndpoints().get(i), entry);
            endpoints.checkAllowed(endpoint, entry);
            if (endpoint.getId().equals(destination.getId())
                    || additional.stream().anyMatch(e -> e.getId().equals(endpoint.getId()))) {
                throw new InvalidRequestException(
                        entry,
                        entry + ": " + endpoint.getCanonicalName()
                                + " is a destination already (each destination once)");
            }
            if (endpoint.getUrl().startsWith("sshftp:") || destination.getUrl().startsWith("sshftp:")) {
                throw new InvalidRequestException(
                        entry,
                        field + " needs ftp:// or gsiftp:// endpoints (a multicast server cannot reach sshftp://)");
            }
            if (endpoint.isGsi() && !destination.isGsi()) {
                throw new InvalidRequestException(
                        entry,
                        entry + ": " + endpoint.getCanonicalName() + " is a gsiftp:// endpoint, which the clear-text"
                                + " destination " + destination.getCanonicalName() + " cannot forward to");
            }
            if (!transfer.skipActivationCheck()) {
                checkActivated(caller, endpoint, entry);
            }
            additional.add(endpoint);
        }
        if (!servers.offers(caller.name(), destination, MULTICAST_FEATURE)) {
            throw new InvalidRequestException(
                    field,
                    field + ": the server of destination_endpoint " + destination.getCanonicalName()
                            + " does not forward to further destinations (its FEAT lacks '" + MULTICAST_FEATURE
                            + "'; ferry-gridftp does with --multicast): send one transfer per destination");
        }
        return List.copyOf(additional);
    }

    /** The CKSM algorithm {@code ferry_verify_tree_digest} compares (ferry-gridftp's TreeDigest). */
    public static final String TREE_DIGEST_ALGORITHM = "SHA256-TREE";

    /**
     * {@code ferry_verify_tree_digest}: both servers must digest whole trees (their FEAT's CKSM line
     * lists {@value #TREE_DIGEST_ALGORITHM}), asked now so that a task is never accepted to verify
     * what it cannot.
     *
     * @throws InvalidRequestException naming {@code ferry_verify_tree_digest} for a server that cannot
     */
    private void checkTreeDigests(Caller caller, Endpoint source, Endpoint destination) {
        for (Endpoint endpoint : List.of(source, destination)) {
            if (!servers.offersChecksum(caller.name(), endpoint, TREE_DIGEST_ALGORITHM)) {
                throw new InvalidRequestException(
                        "ferry_verify_tree_digest",
                        "ferry_verify_tree_digest: the server of " + endpoint.getCanonicalName()
                                + " cannot digest a whole tree (its FEAT's CKSM line lacks " + TREE_DIGEST_ALGORITHM
                                + "; ferry-gridftp has it, globus-gridftp-server has not): use verify_checksum");
            }
        }
    }

    /** The FEAT line of a server that forwards multicast trees (MulticastTree.FEATURE). */
    public static final String MULTICAST_FEATURE = MulticastTree.FEATURE;

    private void checkActivated(Caller caller, Endpoint endpoint, String field) {
        if (endpoint.needsActivation()) { // gsiftp:// (not personal) or sshftp:// without a stored key
            try {
                accesses.usableCredential(caller.name(), endpoint);
            } catch (ActivationRequiredException e) {
                throw new ConflictException(ActivationRequiredException.CODE, field, e.getMessage());
            }
        }
    }

    /**
     * Asks the scheduler what a transfer would do now (copy, skip, exclude, delete), changing
     * nothing on either endpoint and storing nothing.
     *
     * @param caller the user
     * @param transfer the checked transfer
     * @return the dry run's findings
     * @throws NotFoundException for an endpoint the caller cannot see
     * @throws NotSupportedException if this server has no scheduler
     * @throws org.ferry.api.error.EndpointException if an endpoint fails
     * @throws InvalidRequestException naming {@code ferry_additional_destination_endpoints} (or an
     *     entry) as {@link #submit} does
     */
    public DryRun dryRun(Caller caller, TransferSubmission transfer) {
        Endpoint source = endpoints.resolve(caller, transfer.sourceEndpoint(), "source_endpoint");
        Endpoint destination = endpoints.resolve(caller, transfer.destinationEndpoint(), "destination_endpoint");
        TransferPreview previewer = preview.orElseThrow(
                () -> new NotSupportedException(null, "This server has no scheduler to plan a dry run"));
        // multicast: the further destinations are checked as a submission checks them (a dry run
        // that passes where the submission would be refused would say nothing)
        List<Endpoint> additional = additionalDestinations(caller, transfer, destination);
        return previewer.preview(new TransferPreview.Plan(source, destination, caller.name(), transfer, additional));
    }

    /**
     * Checks that the caller can see a transfer's endpoints, and stores nothing (a timer's body is
     * checked when the timer is made, not first at its first tick).
     *
     * @param caller the user
     * @param transfer the checked transfer
     * @throws NotFoundException for an endpoint the caller cannot see
     */
    public void checkEndpoints(Caller caller, TransferSubmission transfer) {
        endpoints.resolve(caller, transfer.sourceEndpoint(), "source_endpoint");
        endpoints.resolve(caller, transfer.destinationEndpoint(), "destination_endpoint");
        for (int i = 0; i < transfer.additionalDestinationEndpoints().size(); i++) {
            endpoints.resolve(
                    caller,
                    transfer.additionalDestinationEndpoints().get(i),
                    "ferry_additional_destination_endpoints[" + i + "]");
        }
    }
}
