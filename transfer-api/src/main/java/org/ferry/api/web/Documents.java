package org.ferry.api.web;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ferry.api.activation.ActivationRequirement;
import org.ferry.api.activation.ActivationResult;
import org.ferry.api.credential.ActivationStatus;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.SyncLevel;
import org.ferry.api.domain.Task;
import org.ferry.api.domain.TaskEvent;
import org.ferry.api.domain.TaskStatus;
import org.ferry.mover.protocol.FileInfo;

/**
 * Builds the JSON documents of rest-api.md with the Globus field names, in a stable order.
 * Maps rather than annotated records because the Globus names mix {@code DATA_TYPE} with
 * snake_case and several fields are computed.
 */
public final class Documents {

    private Documents() {}

    /**
     * @param endpoint the endpoint
     * @param activation the caller's activation of it
     * @param now the time {@code expires_in} counts from
     * @return the endpoint document (never the password): with {@code activated},
     *     {@code expires_in} (-1 never, 0 not activated), {@code expire_time} and the credential's
     *     identity ({@code activation_subject})
     */
    public static Map<String, Object> endpoint(Endpoint endpoint, ActivationStatus activation, Instant now) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("DATA_TYPE", "endpoint");
        doc.put("id", endpoint.getId().toString());
        doc.put("canonical_name", endpoint.getCanonicalName());
        doc.put("display_name", endpoint.getDisplayName());
        doc.put("owner_string", endpoint.getOwnerName());
        doc.put("url", endpoint.getUrl());
        doc.put("username", endpoint.getUsername());
        doc.put("myproxy_server", endpoint.getMyProxyServer());
        doc.put("myproxy_dn", endpoint.getMyProxyDn());
        putActivation(doc, activation, now);
        doc.put("activation_subject", activation.subject());
        return doc;
    }

    private static void putActivation(Map<String, Object> doc, ActivationStatus activation, Instant now) {
        doc.put("activated", activation.activated());
        doc.put("expires_in", activation.expiresInSeconds(now));
        doc.put("expire_time", ApiTime.format(activation.activated() ? activation.expireTime() : null));
    }

    /**
     * @param result requirements (from {@code activation_requirements} or a failed
     *     {@code autoactivate})
     * @param now the time {@code expires_in} counts from
     * @return the {@code activation_requirements} document
     */
    public static Map<String, Object> activationRequirements(ActivationResult result, Instant now) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("DATA_TYPE", "activation_requirements");
        putActivation(doc, result.status(), now);
        doc.put("auto_activation_supported", result.status().needsActivation());
        doc.put("oauth_server", null);
        doc.put("subject", result.status().subject());
        List<Map<String, Object>> data =
                result.requirements().stream().map(Documents::requirement).toList();
        doc.put("DATA", data);
        doc.put("length", data.size());
        return doc;
    }

    private static Map<String, Object> requirement(ActivationRequirement requirement) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("DATA_TYPE", "activation_requirement");
        doc.put("type", requirement.type());
        doc.put("name", requirement.name());
        doc.put("value", requirement.isPrivate() ? null : requirement.value());
        doc.put("required", requirement.required());
        doc.put("private", requirement.isPrivate());
        doc.put("ui_name", requirement.uiName());
        doc.put("description", requirement.description());
        return doc;
    }

    /**
     * @param result what an activate, autoactivate or deactivate did
     * @param endpoint the endpoint
     * @param resource the request path, e.g. {@code /endpoint/<id>/activate}
     * @param now the time {@code expires_in} counts from
     * @return the {@code activation_result} document (an {@code AutoActivationFailed} one carries
     *     the requirements in {@code DATA})
     */
    public static Map<String, Object> activationResult(
            ActivationResult result, Endpoint endpoint, String resource, Instant now) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("DATA_TYPE", "activation_result");
        doc.put("code", result.code());
        doc.put("message", result.message());
        doc.put("resource", resource);
        doc.put("endpoint_id", endpoint.getId().toString());
        doc.put("endpoint", endpoint.getCanonicalName());
        putActivation(doc, result.status(), now);
        doc.put("subject", result.status().subject());
        List<Map<String, Object>> data =
                result.requirements().stream().map(Documents::requirement).toList();
        doc.put("DATA", data);
        doc.put("length", data.size());
        return doc;
    }

    /**
     * @param task the task
     * @param now the time rates are computed against while the task is ACTIVE
     * @return the task document
     */
    public static Map<String, Object> task(Task task, Instant now) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("DATA_TYPE", "task");
        doc.put("task_id", task.getId().toString());
        doc.put("type", task.getType());
        doc.put("status", task.getStatus().name());
        doc.put("nice_status", task.getNiceStatus());
        doc.put("label", task.getLabel());
        doc.put("owner_string", task.getOwnerName());
        doc.put("request_time", ApiTime.format(task.getRequestTime()));
        doc.put("completion_time", ApiTime.format(task.getCompletionTime()));
        doc.put("deadline", ApiTime.format(task.getDeadline()));
        doc.put("source_endpoint", task.getSourceEndpoint());
        doc.put("source_endpoint_id", task.getSourceEndpointId().toString());
        doc.put("destination_endpoint", task.getDestinationEndpoint());
        doc.put("destination_endpoint_id", task.getDestinationEndpointId().toString());
        SyncLevel syncLevel = task.getSyncLevel();
        doc.put("sync_level", syncLevel == null ? null : syncLevel.level());
        doc.put("verify_checksum", task.isVerifyChecksum());
        doc.put("encrypt_data", task.isEncryptData());
        doc.put("files", task.getFiles());
        doc.put("directories", task.getDirectories());
        doc.put("files_transferred", task.getFilesTransferred());
        doc.put("files_skipped", task.getFilesSkipped());
        doc.put("bytes_transferred", task.getBytesTransferred());
        doc.put("effective_bytes_per_second", effectiveBytesPerSecond(task, now));
        doc.put("faults", task.getFaults());
        doc.put("subtasks_total", task.getSubtasksTotal());
        long open = Math.max(0, task.getSubtasksTotal() - task.getSubtasksSucceeded() - task.getSubtasksFailed());
        boolean active = task.getStatus() == TaskStatus.ACTIVE || task.getStatus() == TaskStatus.INACTIVE;
        doc.put("subtasks_pending", active ? open : 0);
        doc.put("subtasks_succeeded", task.getSubtasksSucceeded());
        doc.put("subtasks_failed", task.getSubtasksFailed());
        // subtasks left open by a cancel are reported as cancelled, as Globus does
        doc.put("subtasks_canceled", active ? 0 : open);
        if (task.getFatalErrorCode() == null) {
            doc.put("fatal_error", null);
        } else {
            Map<String, Object> fatal = new LinkedHashMap<>();
            fatal.put("code", task.getFatalErrorCode());
            fatal.put("description", task.getFatalErrorDescription());
            doc.put("fatal_error", fatal);
        }
        return doc;
    }

    private static long effectiveBytesPerSecond(Task task, Instant now) {
        Instant start = task.getStartTime() != null ? task.getStartTime() : task.getRequestTime();
        Instant end = task.getCompletionTime() != null ? task.getCompletionTime() : now;
        long millis = Math.max(1, Duration.between(start, end).toMillis());
        return task.getBytesTransferred() * 1000 / millis;
    }

    /** @return the event document */
    public static Map<String, Object> event(TaskEvent event) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("DATA_TYPE", "event");
        doc.put("code", event.getCode());
        doc.put("is_error", event.isError());
        doc.put("description", event.getDescription());
        doc.put("details", event.getDetails());
        doc.put("time", ApiTime.format(event.getTime()));
        return doc;
    }

    /** @return the file document of one listing entry */
    public static Map<String, Object> file(FileInfo info) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("DATA_TYPE", "file");
        doc.put("name", info.name());
        doc.put(
                "type",
                switch (info.type()) {
                    case DIRECTORY -> "dir";
                    case SYMLINK -> "link";
                    default -> "file";
                });
        doc.put("size", info.sizeBytes());
        doc.put("last_modified", ApiTime.format(info.modified()));
        doc.put("permissions", info.unixMode() < 0 ? null : String.format("%04o", info.unixMode()));
        return doc;
    }

    /**
     * @return a {@code result} document, e.g. code {@code Deleted}
     */
    public static Map<String, Object> result(String code, String message) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("DATA_TYPE", "result");
        doc.put("code", code);
        doc.put("message", message);
        return doc;
    }
}
