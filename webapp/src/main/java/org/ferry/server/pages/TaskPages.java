package org.ferry.server.pages;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.ferry.api.domain.Task;
import org.ferry.api.domain.TaskEvent;
import org.ferry.api.domain.TaskStatus;
import org.ferry.api.identity.Caller;
import org.ferry.api.service.TaskService;
import org.ferry.api.store.TaskListRows;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;
import tools.jackson.databind.ObjectMapper;

/**
 * The task list ({@code /tasks}: filter by status, type and label, paged) and the task page
 * ({@code /tasks/{id}}: counters, throughput chart, events, cancel), whose progress arrives over
 * {@code /tasks/{id}/stream} (server-sent events, see {@link TaskStreams}).
 */
@Controller
public class TaskPages {

    /** Tasks per page of the list. */
    static final int PAGE_SIZE = 20;
    /** Events the task page shows (newest first); the stream adds newer ones. */
    static final int EVENTS_SHOWN = 200;
    /** Failed and skipped files listed on the task page (the API's skipped_errors pages through all). */
    static final int PROBLEM_FILES_SHOWN = 100;

    private final TaskService tasks;
    private final TaskStreams streams;
    private final TaskViews views;
    private final ObjectMapper json;

    /**
     * @param tasks the task service
     * @param streams the live streams
     * @param views JSON views of the chart
     * @param json writes the chart's first points into the page
     */
    public TaskPages(TaskService tasks, TaskStreams streams, TaskViews views, ObjectMapper json) {
        this.tasks = tasks;
        this.streams = streams;
        this.views = views;
        this.json = json;
    }

    /** The task list. */
    @GetMapping("/tasks")
    public String list(
            Caller caller,
            @RequestParam(name = "status", required = false) List<String> statuses,
            @RequestParam(name = "type", required = false) String type,
            @RequestParam(name = "label", required = false) String label,
            @RequestParam(name = "page", defaultValue = "1") int pageNumber,
            Model model) {
        int page = Math.max(1, pageNumber);
        List<String> clauses = new ArrayList<>();
        List<String> chosen = statuses == null
                ? List.of()
                : statuses.stream().filter(s -> !s.isBlank()).toList();
        if (!chosen.isEmpty()) {
            clauses.add("status:" + String.join(",", chosen));
        }
        if (type != null && !type.isBlank()) {
            clauses.add("type:" + type);
        }
        if (label != null && !label.isBlank()) {
            // a substring, as people search: the label filter's glob around it
            clauses.add("label:~*" + label.trim().replace("/", "?") + "*");
        }
        TaskListRows.TaskListPage found = tasks.list(
                caller, clauses.isEmpty() ? null : String.join("/", clauses), null, PAGE_SIZE, (page - 1) * PAGE_SIZE);
        model.addAttribute("tasks", found.tasks());
        model.addAttribute("total", found.total());
        model.addAttribute("page", page);
        model.addAttribute("pages", Math.max(1, (found.total() + PAGE_SIZE - 1) / PAGE_SIZE));
        model.addAttribute("statuses", List.of(TaskStatus.values()));
        model.addAttribute("chosenStatuses", chosen);
        model.addAttribute("type", type == null ? "" : type);
        model.addAttribute("label", label == null ? "" : label);
        return "tasks";
    }

    /** One task. */
    @GetMapping("/tasks/{taskId}")
    public String task(Caller caller, @PathVariable("taskId") String taskId, Model model) {
        Task task = tasks.get(caller, taskId);
        List<TaskEvent> events =
                tasks.events(caller, taskId, null, EVENTS_SHOWN, 0).getContent();
        List<TaskEvent> progress = tasks.progressEvents(caller, taskId);
        long lastEventId = events.isEmpty() ? 0 : events.get(0).getId();
        List<Object> points = new ArrayList<>();
        for (ThroughputSeries.Point point : ThroughputSeries.of(
                progress.stream().filter(e -> e.getId() <= lastEventId).toList())) {
            points.add(views.point(point));
        }
        model.addAttribute("task", task);
        model.addAttribute(
                "bytesTransferred", task.getBytesTransferred() + (task.isOpen() ? task.getBytesInFlight() : 0));
        model.addAttribute("problemFiles", tasks.failedAndSkippedFiles(caller, taskId, PROBLEM_FILES_SHOWN));
        model.addAttribute("problemFilesShown", PROBLEM_FILES_SHOWN);
        model.addAttribute("events", events);
        model.addAttribute("lastEventId", lastEventId);
        model.addAttribute("pointsJson", json.writeValueAsString(points));
        model.addAttribute("owned", caller.owns(task.getOwnerName()));
        model.addAttribute("waitReason", views.waitReason(task, Instant.now()));
        model.addAttribute("rateText", task.isOpen() ? TaskViews.MEASURING : TaskViews.ENDED);
        return "task";
    }

    /**
     * The task's live stream.
     *
     * @param after the newest event id the page has
     * @param lastEventId the browser's {@code Last-Event-ID} when it reconnects (wins over {@code after})
     */
    @GetMapping(path = "/tasks/{taskId}/stream", produces = "text/event-stream")
    public SseEmitter stream(
            Caller caller,
            @PathVariable("taskId") String taskId,
            @RequestParam(name = "after", defaultValue = "0") long after,
            @RequestHeader(name = "Last-Event-ID", required = false) String lastEventId) {
        long from = after;
        if (lastEventId != null && lastEventId.matches("\\d{1,18}")) {
            from = Long.parseLong(lastEventId);
        }
        return streams.open(caller, taskId, from);
    }

    /** Cancels the task, back to its page with what happened. */
    @PostMapping("/tasks/{taskId}/cancel")
    public String cancel(Caller caller, @PathVariable("taskId") String taskId, RedirectAttributes redirect) {
        boolean canceled = tasks.cancel(caller, taskId);
        redirect.addFlashAttribute(
                "notice", canceled ? "The task was cancelled." : "The task had already ended; nothing was cancelled.");
        return "redirect:/tasks/" + taskId;
    }
}
