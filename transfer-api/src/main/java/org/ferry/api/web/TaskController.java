package org.ferry.api.web;

import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.ferry.api.command.TaskChange;
import org.ferry.api.document.EventDocument;
import org.ferry.api.document.MarkerListDocument;
import org.ferry.api.document.OffsetListDocument;
import org.ferry.api.document.PauseInfoDocument;
import org.ferry.api.document.ResultDocument;
import org.ferry.api.document.SkippedErrorDocument;
import org.ferry.api.document.SuccessfulTransferDocument;
import org.ferry.api.document.TaskDocument;
import org.ferry.api.document.TaskUpdateRequest;
import org.ferry.api.domain.Task;
import org.ferry.api.domain.TaskEvent;
import org.ferry.api.domain.TaskStatus;
import org.ferry.api.domain.TransferFile;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.identity.Caller;
import org.ferry.api.service.Labels;
import org.ferry.api.service.Paging;
import org.ferry.api.service.TaskService;
import org.ferry.api.service.TimeValues;
import org.ferry.api.store.NewTask;
import org.ferry.api.store.TaskListRows;
import org.springframework.data.domain.Page;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Tasks: list, get, update, cancel, events, successful transfers, skipped errors, pause info
 * (docs/rest-api.md "Tasks").
 */
@RestController
@RequestMapping(path = "/v0.10", produces = "application/json")
public class TaskController {

    /** Largest {@code limit} of task and event lists. */
    public static final int MAX_LIMIT = 1000;

    private final TaskService tasks;
    private final OwnerIds ownerIds;

    /**
     * @param tasks the task service
     * @param ownerIds owner account ids
     */
    public TaskController(TaskService tasks, OwnerIds ownerIds) {
        this.tasks = tasks;
        this.ownerIds = ownerIds;
    }

    /** {@code GET /task_list?filter&orderby&limit&offset}: the caller's tasks (an admin's: all). */
    @GetMapping("/task_list")
    public OffsetListDocument<TaskDocument> taskList(
            Caller caller,
            @RequestParam(name = "filter", required = false) String filter,
            @RequestParam(name = "orderby", required = false) String orderby,
            @RequestParam(name = "limit", required = false) Integer limit,
            @RequestParam(name = "offset", required = false) Integer offset) {
        int size = Paging.limit(limit, 10, MAX_LIMIT);
        int first = Paging.offset(offset);
        TaskListRows.TaskListPage page = tasks.list(caller, filter, orderby, size, first);
        Map<String, String> ids = ownerIds.of(
                caller, page.tasks().stream().map(Task::getOwnerName).toList());
        Instant now = Instant.now();
        // multicast tasks list their destinations here as in GET /task/{id}
        Map<UUID, List<NewTask.Destination>> additional = page.additionalDestinations();
        return OffsetListDocument.of(
                "task_list",
                page.tasks().stream()
                        .map(t -> {
                            List<NewTask.Destination> further = additional.getOrDefault(t.getId(), List.of());
                            return ApiDocuments.task(t, ids.get(t.getOwnerName()), now, further, inFlight(t, further));
                        })
                        .toList(),
                size,
                first,
                page.total());
    }

    /** {@code GET /task/{id}}: the task document. */
    @GetMapping("/task/{taskId}")
    public TaskDocument task(Caller caller, @PathVariable("taskId") String taskId) {
        Task task = tasks.get(caller, taskId);
        List<NewTask.Destination> additional = tasks.additionalDestinations(task);
        return ApiDocuments.task(
                task, ownerIds.of(caller, task.getOwnerName()), Instant.now(), additional, inFlight(task, additional));
    }

    /** @return a running multicast task's files in flight per destination; empty otherwise */
    private List<long[]> inFlight(Task task, List<NewTask.Destination> additional) {
        if (additional.isEmpty() || task.getStatus() != TaskStatus.ACTIVE) {
            return List.of();
        }
        return tasks.destinationsInFlight(task, 1 + additional.size());
    }

    /** {@code PUT /task/{id} {label, deadline}}: result {@code Updated}; 409 once the task ended. */
    @PutMapping("/task/{taskId}")
    public ResultDocument update(
            Caller caller,
            @PathVariable("taskId") String taskId,
            @RequestBody TaskUpdateRequest body,
            HttpServletRequest request) {
        tasks.update(caller, taskId, change(body));
        return new ResultDocument(
                "result", "Updated", "Updated successfully", RequestIds.resource(request), RequestIds.of(request));
    }

    /** {@code POST /task/{id}/cancel}: code {@code Canceled}, or {@code TaskComplete} if it had ended. */
    @PostMapping("/task/{taskId}/cancel")
    public ResultDocument cancel(Caller caller, @PathVariable("taskId") String taskId, HttpServletRequest request) {
        boolean canceled = tasks.cancel(caller, taskId);
        return new ResultDocument(
                "result",
                canceled ? "Canceled" : "TaskComplete",
                canceled ? "The task has been cancelled successfully." : "The task had already ended.",
                RequestIds.resource(request),
                RequestIds.of(request));
    }

    /** {@code GET /task/{id}/event_list?filter=is_error:1&limit&offset}: newest first. */
    @GetMapping("/task/{taskId}/event_list")
    public OffsetListDocument<EventDocument> eventList(
            Caller caller,
            @PathVariable("taskId") String taskId,
            @RequestParam(name = "filter", required = false) String filter,
            @RequestParam(name = "limit", required = false) Integer limit,
            @RequestParam(name = "offset", required = false) Integer offset) {
        int size = Paging.limit(limit, 10, MAX_LIMIT);
        int first = Paging.offset(offset);
        Page<TaskEvent> page = tasks.events(caller, taskId, filter, size, first);
        return OffsetListDocument.of(
                "event_list",
                page.getContent().stream().map(ApiDocuments::event).toList(),
                size,
                first,
                page.getTotalElements());
    }

    /** {@code GET /task/{id}/successful_transfers?marker}: files that arrived, 1000 a page, with their checksum when verified. */
    @GetMapping("/task/{taskId}/successful_transfers")
    public MarkerListDocument<SuccessfulTransferDocument> successfulTransfers(
            Caller caller,
            @PathVariable("taskId") String taskId,
            @RequestParam(name = "marker", required = false) String marker) {
        Task task = tasks.get(caller, taskId);
        String verified = task.isVerifyChecksum() ? task.getChecksumAlgorithm() : null;
        TaskService.MarkerPage<TransferFile> page = tasks.successfulTransfers(caller, taskId, marker);
        return new MarkerListDocument<>(
                "successful_transfers",
                marker,
                page.nextMarker(),
                page.rows().stream()
                        .map(f -> ApiDocuments.successfulTransfer(f, verified))
                        .toList());
    }

    /** {@code GET /task/{id}/skipped_errors?marker}: paths skipped under {@code skip_source_errors}. */
    @GetMapping("/task/{taskId}/skipped_errors")
    public MarkerListDocument<SkippedErrorDocument> skippedErrors(
            Caller caller,
            @PathVariable("taskId") String taskId,
            @RequestParam(name = "marker", required = false) String marker) {
        TaskService.MarkerPage<TransferFile> page = tasks.skippedErrors(caller, taskId, marker);
        return new MarkerListDocument<>(
                "skipped_errors",
                marker,
                page.nextMarker(),
                page.rows().stream().map(ApiDocuments::skippedError).toList());
    }

    /** {@code GET /task/{id}/pause_info}: the rules pausing the task (none: Ferry has no pause rules). */
    @GetMapping("/task/{taskId}/pause_info")
    public PauseInfoDocument pauseInfo(Caller caller, @PathVariable("taskId") String taskId) {
        tasks.get(caller, taskId);
        return new PauseInfoDocument("pause_info_limited", List.of(), null, null, null, null);
    }

    /** @return the change a {@code PUT /task/{id}} body asks for, its fields checked by name */
    private static TaskChange change(TaskUpdateRequest body) {
        if (body == null) {
            throw new InvalidRequestException(null, "Request body must be a task document with label and/or deadline");
        }
        if (body.dataType() != null && !"task".equals(body.dataType())) {
            throw new InvalidRequestException("DATA_TYPE", "DATA_TYPE must be 'task'");
        }
        return new TaskChange(Labels.check(body.label()), TimeValues.parse("deadline", body.deadline()));
    }
}
