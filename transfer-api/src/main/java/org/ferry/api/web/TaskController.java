package org.ferry.api.web;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.ferry.api.auth.AuthenticatedUser;
import org.ferry.api.domain.Task;
import org.ferry.api.domain.TaskEvent;
import org.ferry.api.service.TaskService;
import org.ferry.api.service.TransferRequest;
import org.ferry.api.service.TransferRequestParser;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.data.domain.Page;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Submission, task queries, events and cancel (rest-api.md "Transfers and tasks"). */
@RestController
@RequestMapping("/v0.10")
public class TaskController {

    private static final int MAX_LIMIT = 1000;

    private final TaskService tasks;
    private final TransferRequestParser parser;

    /**
     * @param tasks task service
     * @param parser transfer document validation
     */
    public TaskController(TaskService tasks, TransferRequestParser parser) {
        this.tasks = tasks;
        this.parser = parser;
    }

    /** {@code GET /submission_id}: a fresh submission id. */
    @GetMapping("/submission_id")
    public Map<String, Object> submissionId() {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("DATA_TYPE", "submission_id");
        doc.put("value", UUID.randomUUID().toString());
        return doc;
    }

    /**
     * {@code POST /transfer}: 202 {@code transfer_result} with code {@code Accepted}, or
     * {@code Duplicate} for a submission id used before; 400 naming the field, 404 for an unknown
     * endpoint.
     */
    @PostMapping("/transfer")
    public ResponseEntity<Map<String, Object>> transfer(
            @RequestAttribute(AuthenticatedUser.REQUEST_ATTRIBUTE) AuthenticatedUser caller,
            @RequestBody Map<String, Object> body) {
        TransferRequest request = parser.parse(body);
        TaskService.Submission submission;
        try {
            submission = tasks.submit(caller.name(), request);
        } catch (DataIntegrityViolationException raced) {
            // a concurrent post with the same submission id committed first
            Optional<TaskService.Submission> earlier = request.submissionId() == null
                    ? Optional.empty()
                    : tasks.findDuplicate(caller.name(), request.submissionId());
            submission = earlier.orElseThrow(() -> raced);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("DATA_TYPE", "transfer_result");
        if (submission.duplicate()) {
            doc.put("code", "Duplicate");
            doc.put("message", "A transfer with this submission_id was already accepted");
        } else {
            doc.put("code", "Accepted");
            doc.put("message", "The transfer has been accepted and a task has been created and queued for execution");
        }
        doc.put("task_id", submission.task().getId().toString());
        doc.put("submission_id", submission.task().getSubmissionId());
        doc.put("request_id", UUID.randomUUID().toString().replace("-", "").substring(0, 16));
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(doc);
    }

    /** {@code GET /task_list}: the caller's tasks, newest first. */
    @GetMapping("/task_list")
    public Map<String, Object> taskList(
            @RequestAttribute(AuthenticatedUser.REQUEST_ATTRIBUTE) AuthenticatedUser caller,
            @RequestParam(name = "limit", defaultValue = "10") int limit,
            @RequestParam(name = "offset", defaultValue = "0") int offset,
            @RequestParam(name = "filter", required = false) String filter) {
        Page<Task> page = tasks.list(caller.name(), filter, Paging.limit(limit, MAX_LIMIT), Paging.offset(offset));
        Instant now = Instant.now();
        return list(
                "task_list",
                page.getContent().stream().map(t -> Documents.task(t, now)).toList(),
                limit,
                offset,
                page.getTotalElements());
    }

    /** {@code GET /task/{id}}: the task document, or 404. */
    @GetMapping("/task/{taskId}")
    public Map<String, Object> task(
            @RequestAttribute(AuthenticatedUser.REQUEST_ATTRIBUTE) AuthenticatedUser caller,
            @PathVariable("taskId") String taskId) {
        return Documents.task(tasks.get(caller.name(), taskId), Instant.now());
    }

    /** {@code GET /task/{id}/event_list}: the task's events, newest first. */
    @GetMapping("/task/{taskId}/event_list")
    public Map<String, Object> eventList(
            @RequestAttribute(AuthenticatedUser.REQUEST_ATTRIBUTE) AuthenticatedUser caller,
            @PathVariable("taskId") String taskId,
            @RequestParam(name = "limit", defaultValue = "100") int limit,
            @RequestParam(name = "offset", defaultValue = "0") int offset,
            @RequestParam(name = "filter", required = false) String filter) {
        Page<TaskEvent> page =
                tasks.events(caller.name(), taskId, filter, Paging.limit(limit, MAX_LIMIT), Paging.offset(offset));
        return list(
                "event_list",
                page.getContent().stream().map(Documents::event).toList(),
                limit,
                offset,
                page.getTotalElements());
    }

    /** {@code POST /task/{id}/cancel}: code {@code Canceled}, or {@code TaskComplete} if it had ended. */
    @PostMapping("/task/{taskId}/cancel")
    public Map<String, Object> cancel(
            @RequestAttribute(AuthenticatedUser.REQUEST_ATTRIBUTE) AuthenticatedUser caller,
            @PathVariable("taskId") String taskId) {
        if (tasks.cancel(caller.name(), taskId)) {
            return Documents.result("Canceled", "The task has been cancelled successfully.");
        }
        return Documents.result("TaskComplete", "The task had already ended.");
    }

    private static Map<String, Object> list(
            String dataType, List<Map<String, Object>> data, int limit, int offset, long total) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("DATA_TYPE", dataType);
        doc.put("DATA", data);
        doc.put("length", data.size());
        doc.put("limit", limit);
        doc.put("offset", offset);
        doc.put("total", total);
        return doc;
    }
}
