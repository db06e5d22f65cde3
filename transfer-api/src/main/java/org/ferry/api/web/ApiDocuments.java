package org.ferry.api.web;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.ferry.api.credential.ActivationStatus;
import org.ferry.api.document.EndpointDocument;
import org.ferry.api.document.EventDocument;
import org.ferry.api.document.FileDocument;
import org.ferry.api.document.ServerDocument;
import org.ferry.api.document.SkippedErrorDocument;
import org.ferry.api.document.SuccessfulTransferDocument;
import org.ferry.api.document.TaskDocument;
import org.ferry.api.document.TransferRequest;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.EndpointServer;
import org.ferry.api.domain.FilterRules;
import org.ferry.api.domain.SyncLevel;
import org.ferry.api.domain.Task;
import org.ferry.api.domain.TaskEvent;
import org.ferry.api.domain.TaskStatus;
import org.ferry.api.domain.TaskType;
import org.ferry.api.domain.TransferFile;
import org.ferry.api.service.FileListings;
import org.ferry.api.service.TaskWaitReason;
import org.ferry.api.store.NewTask;
import org.ferry.mover.connect.relay.AgentPresence;
import org.ferry.mover.protocol.FileInfo;

/** Turns entities into the API's documents. */
public final class ApiDocuments {

    private ApiDocuments() {}

    /**
     * @param endpoint the endpoint
     * @param ownerId the owner's account id, or null when unknown
     * @param activation the caller's activation of it
     * @param now the time {@code expires_in} counts from
     * @param servers its servers
     * @return its document (never the password)
     */
    public static EndpointDocument endpoint(
            Endpoint endpoint, String ownerId, ActivationStatus activation, Instant now, List<EndpointServer> servers) {
        return endpoint(endpoint, ownerId, activation, now, servers, Optional.empty());
    }

    /**
     * As {@link #endpoint(Endpoint, String, ActivationStatus, Instant, List)}, with a personal
     * endpoint's agent.
     *
     * @param endpoint the endpoint
     * @param ownerId the owner's account id, or null when unknown
     * @param activation the caller's activation of it
     * @param now the time {@code expires_in} counts from
     * @param servers its servers
     * @param agent its agent while connected (a personal endpoint)
     * @return its document (never the password)
     */
    public static EndpointDocument endpoint(
            Endpoint endpoint,
            String ownerId,
            ActivationStatus activation,
            Instant now,
            List<EndpointServer> servers,
            Optional<AgentPresence> agent) {
        boolean personal = endpoint.isPersonal();
        return new EndpointDocument(
                "endpoint",
                endpoint.getId().toString(),
                endpoint.getCanonicalName(),
                endpoint.getDisplayName(),
                endpoint.getOwnerName(),
                ownerId,
                endpoint.getDescription(),
                endpoint.getUrl(),
                endpoint.getUsername(),
                endpoint.isPublic(),
                endpoint.getDefaultDirectory(),
                activation.activated(),
                activation.expiresInSeconds(now),
                ApiTime.format(activation.activated() ? activation.expireTime() : null),
                activation.subject(),
                endpoint.getMyProxyServer(),
                endpoint.getMyProxyDn(),
                personal ? "GCP_mapped_collection" : "GCSv4_endpoint",
                personal,
                false,
                servers(servers),
                personal ? agent.isPresent() : null,
                agent.map(a -> ApiTime.format(a.since())).orElse(null),
                agent.map(AgentPresence::version).orElse(null),
                agent.map(AgentPresence::directories).orElse(null),
                personal ? endpoint.isConnectRevoked() : null,
                null);
    }

    /**
     * @param servers an endpoint's servers
     * @return their server documents
     */
    public static List<ServerDocument> servers(List<EndpointServer> servers) {
        return servers.stream()
                .map(s -> new ServerDocument(
                        "server",
                        s.getId() == null ? 0 : s.getId(),
                        s.getHostname(),
                        s.getPort(),
                        s.getScheme(),
                        s.uri(),
                        s.getSubject()))
                .toList();
    }

    /**
     * @param task the task
     * @param ownerId the owner's account id, or null when unknown
     * @param now the time rates are computed against while the task is ACTIVE
     * @return the task document
     */
    public static TaskDocument task(Task task, String ownerId, Instant now) {
        return task(task, ownerId, now, List.of());
    }

    /**
     * @param task the task
     * @param ownerId the owner's account id, or null when unknown
     * @param now the time rates are computed against while the task is ACTIVE
     * @param additional the task's further destinations (multicast); empty for none
     * @return the task document, with {@code ferry_destinations} when {@code additional} has any
     */
    public static TaskDocument task(Task task, String ownerId, Instant now, List<NewTask.Destination> additional) {
        return task(task, ownerId, now, additional, List.of());
    }

    /**
     * @param task the task
     * @param ownerId the owner's account id, or null when unknown
     * @param now the time rates are computed against while the task is ACTIVE
     * @param additional the task's further destinations (multicast); empty for none
     * @param inFlight per destination (the first one first) {@code [bytes, files]} of the files in
     *     flight that are there now ({@code TaskStore#destinationsInFlight}); empty when unknown
     * @return the task document, with {@code ferry_destinations} when {@code additional} has any
     */
    public static TaskDocument task(
            Task task, String ownerId, Instant now, List<NewTask.Destination> additional, List<long[]> inFlight) {
        boolean active = task.getStatus() == TaskStatus.ACTIVE || task.getStatus() == TaskStatus.INACTIVE;
        long open = Math.max(
                0,
                task.getSubtasksTotal()
                        - task.getSubtasksSucceeded()
                        - task.getSubtasksFailed()
                        - task.getSubtasksSkippedErrors());
        SyncLevel syncLevel = task.getSyncLevel();
        boolean transfer = task.getType() == TaskType.TRANSFER;
        return new TaskDocument(
                "task",
                task.getId().toString(),
                task.getType().name(),
                task.getStatus().name(),
                task.getNiceStatus(),
                active ? task.isOk() : null,
                task.getStatus() == TaskStatus.ACTIVE ? niceStatusDetails(task, now) : null,
                backingOff(task, now)
                        ? Math.max(
                                1, Duration.between(now, task.getRetryAfter()).toSeconds())
                        : null,
                false,
                task.getLabel(),
                task.getOwnerName(),
                ownerId,
                task.getOwnerName(),
                "API 0.10",
                ApiTime.format(task.getRequestTime()),
                ApiTime.format(task.getCompletionTime()),
                ApiTime.format(task.getDeadline()),
                task.getSourceEndpoint(),
                task.getSourceEndpointId().toString(),
                displayName(task.getSourceEndpoint()),
                task.getDestinationEndpoint(),
                task.getDestinationEndpointId() == null
                        ? null
                        : task.getDestinationEndpointId().toString(),
                displayName(task.getDestinationEndpoint()),
                syncLevel == null ? null : syncLevel.level(),
                task.isVerifyChecksum(),
                task.isPreserveTimestamp(),
                task.isEncryptData(),
                task.isSkipSourceErrors(),
                task.isFailOnQuotaErrors(),
                task.isDeleteDestinationExtra(),
                filterRules(task),
                transfer ? "ignore" : null,
                task.isNotifyOnSucceeded(),
                task.isNotifyOnFailed(),
                task.isNotifyOnInactive(),
                task.getFiles(),
                task.getDirectories(),
                0,
                task.getFilesTransferred(),
                task.getFilesSkipped(),
                // while ACTIVE, the bytes of files still in flight count too (progress of big files)
                task.getBytesTransferred() + (active ? task.getBytesInFlight() : 0),
                0,
                effectiveBytesPerSecond(task, now),
                task.getFaults(),
                task.getSubtasksTotal(),
                active ? open : 0,
                0,
                task.getSubtasksSucceeded(),
                task.getSubtasksFailed(),
                // subtasks left open by a cancel are reported as cancelled, as Globus does
                active ? 0 : open,
                0,
                task.getSubtasksSkippedErrors(),
                task.getFatalErrorCode() == null
                        ? null
                        : new TaskDocument.FatalError(task.getFatalErrorCode(), task.getFatalErrorDescription()),
                task.isCanceledByAdmin(),
                null,
                false,
                task.isVerifyTreeDigest(),
                additional.isEmpty() ? null : destinations(task, additional, active ? inFlight : List.of()));
    }

    /**
     * Every destination of a multicast task: the files checked at all of them, plus, while the task
     * is ACTIVE, what each one holds of the files in flight (its own bytes, and the files it holds
     * whole, checked).
     */
    private static List<TaskDocument.Destination> destinations(
            Task task, List<NewTask.Destination> additional, List<long[]> inFlight) {
        List<TaskDocument.Destination> all = new ArrayList<>();
        List<String[]> named = new ArrayList<>();
        named.add(new String[] {task.getDestinationEndpointId().toString(), task.getDestinationEndpoint()});
        for (NewTask.Destination further : additional) {
            named.add(new String[] {further.endpointId().toString(), further.endpoint()});
        }
        for (int i = 0; i < named.size(); i++) {
            long[] there = i < inFlight.size() ? inFlight.get(i) : new long[2];
            all.add(new TaskDocument.Destination(
                    "ferry_destination",
                    named.get(i)[0],
                    displayName(named.get(i)[1]),
                    task.getFilesTransferred() + there[1],
                    task.getBytesTransferred() + there[0]));
        }
        return all;
    }

    /** The task's filter rules in the request's shape, or null when it has none. */
    private static List<TransferRequest.FilterRule> filterRules(Task task) {
        FilterRules rules = task.getFilterRules();
        if (rules.isEmpty()) {
            return null;
        }
        List<TransferRequest.FilterRule> out = new ArrayList<>();
        for (FilterRules.Rule rule : rules.rules()) {
            out.add(new TransferRequest.FilterRule(
                    "filter_rule",
                    rule.method().name().toLowerCase(Locale.ROOT),
                    rule.name(),
                    rule.type() == null ? null : rule.type().name().toLowerCase(Locale.ROOT)));
        }
        return out;
    }

    private static String displayName(String canonicalName) {
        return canonicalName == null ? null : canonicalName.substring(canonicalName.indexOf('#') + 1);
    }

    private static boolean backingOff(Task task, Instant now) {
        return task.getStatus() == TaskStatus.ACTIVE
                && task.getRetryAfter() != null
                && task.getRetryAfter().isAfter(now);
    }

    /** @return why an ACTIVE task waits (a limit, or a back-off after a fault), or null if it does not */
    private static String niceStatusDetails(Task task, Instant now) {
        return TaskWaitReason.of(task, now);
    }

    private static long effectiveBytesPerSecond(Task task, Instant now) {
        Instant start = task.getStartTime() != null ? task.getStartTime() : task.getRequestTime();
        Instant end = task.getCompletionTime() != null ? task.getCompletionTime() : now;
        long millis = Math.max(1, Duration.between(start, end).toMillis());
        // while ACTIVE, the bytes of files in flight count too: a big file shows its rate as it moves
        long bytes = task.getBytesTransferred() + (task.getStatus() == TaskStatus.ACTIVE ? task.getBytesInFlight() : 0);
        return bytes * 1000 / millis;
    }

    /** @return the event document */
    public static EventDocument event(TaskEvent event) {
        return new EventDocument(
                "event",
                event.getCode(),
                event.isError(),
                event.getDescription(),
                event.getDetails(),
                ApiTime.format(event.getTime()));
    }

    /** @return the file document of one listing entry */
    public static FileDocument file(FileInfo info) {
        return new FileDocument(
                "file",
                info.name(),
                FileListings.type(info),
                info.sizeBytes(),
                ApiTime.format(info.modified()),
                info.unixMode() < 0 ? null : String.format("%04o", info.unixMode()),
                null,
                null);
    }

    /**
     * @param file a SUCCEEDED file row
     * @param verified the algorithm its task verified checksums with, or null when it did not
     * @return its successful_transfer document, with the checksum the mover verified (when it did:
     *     the task asked for verify_checksum or the item gave an external_checksum)
     */
    public static SuccessfulTransferDocument successfulTransfer(TransferFile file, String verified) {
        String checksum = file.getChecksum();
        String algorithm = null;
        String value = null;
        if (checksum != null && checksum.indexOf(':') > 0) {
            algorithm = checksum.substring(0, checksum.indexOf(':'));
            value = checksum.substring(checksum.indexOf(':') + 1);
        } else {
            algorithm = verified;
        }
        return new SuccessfulTransferDocument(
                "successful_transfer",
                file.getSourcePath(),
                file.getDestinationPath(),
                file.getSizeBytes(),
                algorithm,
                value);
    }

    /**
     * @param file a SKIPPED file row
     * @return its skipped_error document: the fault that skipped it
     */
    public static SkippedErrorDocument skippedError(TransferFile file) {
        return new SkippedErrorDocument(
                "skipped_error",
                file.getSourcePath(),
                file.getDestinationPath(),
                file.getFaultCode(),
                file.getFaultDescription(),
                ApiTime.format(file.getCompletionTime()),
                false);
    }
}
