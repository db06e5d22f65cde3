package org.ferry.api.service;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import org.ferry.api.command.TaskChange;
import org.ferry.api.domain.EventCode;
import org.ferry.api.domain.FileState;
import org.ferry.api.domain.Task;
import org.ferry.api.domain.TaskEvent;
import org.ferry.api.domain.TaskStatus;
import org.ferry.api.domain.TaskType;
import org.ferry.api.domain.TransferFile;
import org.ferry.api.error.ConflictException;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.error.NotFoundException;
import org.ferry.api.identity.Caller;
import org.ferry.api.lifecycle.TaskCancelRequestedEvent;
import org.ferry.api.lifecycle.TaskDeadlineChangedEvent;
import org.ferry.api.repository.TaskEventRepository;
import org.ferry.api.repository.TaskRepository;
import org.ferry.api.repository.TransferFileRepository;
import org.ferry.api.store.NewTask;
import org.ferry.api.store.TaskListQuery;
import org.ferry.api.store.TaskListRows;
import org.ferry.api.store.TaskStore;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Task queries, updates and cancel. A user sees only their own tasks (others' answer 404 as if
 * absent); an admin sees and may cancel every task. Cancel and deadline changes publish
 * {@link TaskCancelRequestedEvent} and {@link TaskDeadlineChangedEvent}; the scheduler acts on
 * them after the transaction commits.
 */
@Service
public class TaskService {

    /** Description of the fatal error a cancel by the owner records. */
    public static final String CANCELED_DESCRIPTION = "The task was cancelled by its owner";
    /** Description of the fatal error a cancel by an admin records. */
    public static final String CANCELED_BY_ADMIN_DESCRIPTION = "The task was cancelled by an administrator";

    private final TaskRepository tasks;
    private final TaskStore store;
    private final TaskListRows taskList;
    private final TaskEventRepository events;
    private final TransferFileRepository transferFiles;
    private final ApplicationEventPublisher publisher;
    private final int markerPageSize;

    /**
     * @param tasks the tasks, for reading
     * @param store changes tasks
     * @param taskList reads task lists
     * @param events event store
     * @param transferFiles the tasks' file rows
     * @param publisher where lifecycle events go
     * @param limits the marker page size
     */
    public TaskService(
            TaskRepository tasks,
            TaskStore store,
            TaskListRows taskList,
            TaskEventRepository events,
            TransferFileRepository transferFiles,
            ApplicationEventPublisher publisher,
            ApiLimits limits) {
        this.tasks = tasks;
        this.store = store;
        this.taskList = taskList;
        this.events = events;
        this.transferFiles = transferFiles;
        this.publisher = publisher;
        this.markerPageSize = limits.markerPageSize();
    }

    /**
     * @param task a task the caller may see
     * @return its further destinations (Ferry's multicast extension), in order; empty for one
     */
    public List<NewTask.Destination> additionalDestinations(Task task) {
        return store.additionalDestinations(task.getId());
    }

    /**
     * @param task a multicast task the caller may see
     * @param destinations how many destinations it has
     * @return per destination {@code [bytes, files]} of its files in flight there (see {@link
     *     org.ferry.api.store.TaskStore#destinationsInFlight})
     */
    public List<long[]> destinationsInFlight(Task task, int destinations) {
        return store.destinationsInFlight(task.getId(), destinations);
    }

    /**
     * @param task a task the caller may see, planned (its file rows complete)
     * @return the bytes of its files still to move (see {@link TaskStore#bytesLeft})
     */
    @Transactional(readOnly = true)
    public long bytesLeft(Task task) {
        return store.bytesLeft(task.getId());
    }

    /**
     * @param caller the user
     * @param taskId task id text
     * @return the task, if the caller owns it or is an admin
     * @throws NotFoundException naming {@code task_id} if absent, malformed, or another user's
     */
    @Transactional(readOnly = true)
    public Task get(Caller caller, String taskId) {
        UUID id;
        try {
            id = UUID.fromString(taskId);
        } catch (IllegalArgumentException e) {
            throw new NotFoundException("task_id", "Task '" + taskId + "' not found");
        }
        return tasks.findById(id)
                .filter(t -> caller.admin() || caller.owns(t.getOwnerName()))
                .orElseThrow(() -> new NotFoundException("task_id", "Task '" + taskId + "' not found"));
    }

    /**
     * Task list with the Globus filter and order syntax, read in plain SQL ({@link TaskListRows}).
     *
     * @param caller the user (an admin: every user's tasks)
     * @param filter null or clauses separated by {@code /}: {@code task_id:ID,ID},
     *     {@code type:TRANSFER,DELETE}, {@code status:ACTIVE,INACTIVE,SUCCEEDED,FAILED},
     *     {@code label:TEXT}, {@code label:~GLOB}, {@code label:!~GLOB},
     *     {@code request_time:FROM,TO}, {@code completion_time:FROM,TO} (times ISO-8601; either end may be empty)
     * @param orderby null (newest first) or comma-separated {@code FIELD [ASC|DESC]} of
     *     {@code request_time}, {@code completion_time}, {@code deadline}, {@code label},
     *     {@code status}, {@code type}
     * @param limit page size
     * @param offset first row
     * @return one page, its total and the further destinations of its multicast tasks
     * @throws InvalidRequestException naming {@code filter} or {@code orderby}
     */
    public TaskListRows.TaskListPage list(Caller caller, String filter, String orderby, int limit, int offset) {
        TaskListQuery query = new TaskListQuery();
        if (!caller.admin()) {
            query.ownedBy(caller.name());
        }
        if (filter != null && !filter.isBlank()) {
            for (String clause : filter.split("/")) {
                clause(query, clause);
            }
        }
        order(query, orderby);
        return taskList.page(query, limit, offset);
    }

    private static void clause(TaskListQuery query, String clause) {
        int colon = clause.indexOf(':');
        if (colon <= 0) {
            throw new InvalidRequestException("filter", "filter clause '" + clause + "' must be FIELD:VALUE");
        }
        String field = clause.substring(0, colon).trim();
        String value = clause.substring(colon + 1).trim();
        List<String> values = List.of(value.split(","));
        switch (field) {
            case "status" -> {
                Set<TaskStatus> statuses = EnumSet.noneOf(TaskStatus.class);
                for (String v : values) {
                    try {
                        statuses.add(TaskStatus.valueOf(v.trim()));
                    } catch (IllegalArgumentException e) {
                        throw new InvalidRequestException("filter", "Unknown status '" + v + "'");
                    }
                }
                query.statusIn(statuses);
            }
            case "type" -> {
                Set<TaskType> types = EnumSet.noneOf(TaskType.class);
                for (String v : values) {
                    try {
                        types.add(TaskType.valueOf(v.trim()));
                    } catch (IllegalArgumentException e) {
                        throw new InvalidRequestException("filter", "Unknown type '" + v + "'");
                    }
                }
                query.typeIn(types);
            }
            case "task_id" -> {
                List<UUID> ids = new ArrayList<>();
                for (String v : values) {
                    try {
                        ids.add(UUID.fromString(v.trim()));
                    } catch (IllegalArgumentException e) {
                        throw new InvalidRequestException("filter", "task_id '" + v + "' is not a task id");
                    }
                }
                query.idIn(ids);
            }
            case "label" -> {
                if (value.startsWith("!~")) {
                    query.labelNotLike(like(value.substring(2)));
                } else if (value.startsWith("~")) {
                    query.labelLike(like(value.substring(1)));
                } else {
                    query.labelIs(value);
                }
            }
            case "request_time", "completion_time" -> {
                String[] ends = value.split(",", -1);
                if (ends.length != 2) {
                    throw new InvalidRequestException("filter", field + " must be FROM,TO (either may be empty)");
                }
                Instant from = ends[0].isBlank() ? null : TimeValues.parse("filter", ends[0]);
                Instant to = ends[1].isBlank() ? null : TimeValues.parse("filter", ends[1]);
                query.between(
                        field.equals("request_time")
                                ? TaskListQuery.Column.REQUEST_TIME
                                : TaskListQuery.Column.COMPLETION_TIME,
                        from,
                        to);
            }
            default ->
                throw new InvalidRequestException(
                        "filter",
                        "filter field '" + field
                                + "' must be task_id, type, status, label, request_time or completion_time");
        }
    }

    /** A glob ({@code *}, {@code ?}) as an SQL LIKE pattern with {@code \} escaping. */
    private static String like(String glob) {
        StringBuilder like = new StringBuilder();
        for (char c : glob.toCharArray()) {
            switch (c) {
                case '*' -> like.append('%');
                case '?' -> like.append('_');
                case '%', '_', '\\' -> like.append('\\').append(c);
                default -> like.append(c);
            }
        }
        return like.toString();
    }

    /** The orders asked for; the query adds the newest first and the id last (a stable order across pages). */
    private static void order(TaskListQuery query, String orderby) {
        if (orderby == null || orderby.isBlank()) {
            return;
        }
        for (String part : orderby.split(",")) {
            String[] words = part.trim().split("\\s+");
            TaskListQuery.Column column = switch (words[0]) {
                case "request_time" -> TaskListQuery.Column.REQUEST_TIME;
                case "completion_time" -> TaskListQuery.Column.COMPLETION_TIME;
                case "deadline" -> TaskListQuery.Column.DEADLINE;
                case "label" -> TaskListQuery.Column.LABEL;
                case "status" -> TaskListQuery.Column.STATUS;
                case "type" -> TaskListQuery.Column.TYPE;
                default ->
                    throw new InvalidRequestException(
                            "orderby",
                            "orderby field '" + words[0]
                                    + "' must be request_time, completion_time, deadline, label, status or type");
            };
            if (words.length > 2
                    || (words.length == 2 && !words[1].toUpperCase(Locale.ROOT).matches("ASC|DESC"))) {
                throw new InvalidRequestException("orderby", "orderby must be FIELD [ASC|DESC], ...");
            }
            query.orderBy(column, words.length == 2 && words[1].equalsIgnoreCase("DESC"));
        }
    }

    /**
     * Changes the label and/or deadline of an open (ACTIVE or INACTIVE) task (the owner's; an
     * admin's too). A deadline moved into the past ends the task EXPIRED at once.
     *
     * @param caller the user
     * @param taskId the task
     * @param change the new values (null keeps a value)
     * @throws NotFoundException naming {@code task_id} as {@link #get}
     * @throws ConflictException if the task has ended
     */
    @Transactional
    public void update(Caller caller, String taskId, TaskChange change) {
        Task task = get(caller, taskId);
        String label = change.label() == null ? task.getLabel() : change.label();
        Instant deadline = change.deadline() == null ? task.getDeadline() : change.deadline();
        if (!task.isOpen() || !store.updateLabelAndDeadline(task.getId(), label, deadline)) {
            throw new ConflictException(
                    "task_id", "Task " + taskId + " has ended; only ACTIVE and INACTIVE tasks can be updated");
        }
        if (change.deadline() != null) {
            publisher.publishEvent(new TaskDeadlineChangedEvent(task.getId(), deadline));
        }
    }

    /**
     * Ends an ACTIVE or INACTIVE task as FAILED with {@code fatal_error.code = CANCELED}, records a
     * CANCELED event and tells the scheduler to stop it.
     *
     * @param caller the owner or an admin
     * @param taskId the task
     * @return true if cancelled now, false if it had already ended
     */
    @Transactional
    public boolean cancel(Caller caller, String taskId) {
        Task task = get(caller, taskId);
        boolean byAdmin = !caller.owns(task.getOwnerName());
        String description = byAdmin ? CANCELED_BY_ADMIN_DESCRIPTION : CANCELED_DESCRIPTION;
        if (!store.cancel(task.getId(), description, byAdmin ? caller.name() : null, Instant.now())) {
            return false;
        }
        publisher.publishEvent(new TaskCancelRequestedEvent(task.getId()));
        return true;
    }

    /**
     * @param caller the user
     * @param taskId the task
     * @param filter null, {@code is_error:1} or {@code is_error:0}
     * @param limit page size
     * @param offset first row
     * @return the task's events, newest first
     */
    @Transactional(readOnly = true)
    public Page<TaskEvent> events(Caller caller, String taskId, String filter, int limit, int offset) {
        Task task = get(caller, taskId);
        Pageable page = new OffsetPage(offset, limit, Sort.by(Sort.Direction.DESC, "id"));
        if (filter == null || filter.isBlank()) {
            return events.findByTaskId(task.getId(), page);
        }
        return switch (filter.trim()) {
            case "is_error:1", "is_error:true" -> events.findByTaskIdAndError(task.getId(), true, page);
            case "is_error:0", "is_error:false" -> events.findByTaskIdAndError(task.getId(), false, page);
            default -> throw new InvalidRequestException("filter", "filter must be is_error:1 or is_error:0");
        };
    }

    /**
     * The events written after a given one, oldest first: what a live view of the task has not
     * shown yet.
     *
     * @param caller the user
     * @param taskId the task
     * @param afterEventId the id of the last event already shown (0: from the first)
     * @return the newer events, oldest first
     * @throws NotFoundException naming {@code task_id} as {@link #get}
     */
    @Transactional(readOnly = true)
    public List<TaskEvent> eventsAfter(Caller caller, String taskId, long afterEventId) {
        Task task = get(caller, taskId);
        return events.findByTaskIdAndIdGreaterThanOrderByIdAsc(task.getId(), afterEventId);
    }

    /**
     * The task's files that failed (a permanent fault) or were skipped for a source error
     * ({@code skip_source_errors}), each with the fault that ended it, in the order they were
     * planned.
     *
     * @param caller the user
     * @param taskId the task
     * @param limit at most this many rows
     * @return those file rows
     * @throws NotFoundException naming {@code task_id} as {@link #get}
     */
    @Transactional(readOnly = true)
    public List<TransferFile> failedAndSkippedFiles(Caller caller, String taskId, int limit) {
        Task task = get(caller, taskId);
        return transferFiles.findByTaskIdAndStateInOrderById(
                task.getId(), List.of(FileState.FAILED, FileState.SKIPPED), PageRequest.of(0, limit));
    }

    /**
     * The events that carry the task's counters over its life (STARTED, PROGRESS, SUCCEEDED),
     * oldest first: the points of a throughput chart.
     *
     * @param caller the user
     * @param taskId the task
     * @return those events, oldest first
     * @throws NotFoundException naming {@code task_id} as {@link #get}
     */
    @Transactional(readOnly = true)
    public List<TaskEvent> progressEvents(Caller caller, String taskId) {
        Task task = get(caller, taskId);
        return events.findByTaskIdAndIdGreaterThanAndCodeInOrderByIdAsc(
                task.getId(),
                0,
                List.of(EventCode.STARTED.name(), EventCode.PROGRESS.name(), EventCode.SUCCEEDED.name()));
    }

    /**
     * One page of the files that arrived ({@code SUCCEEDED} rows), in the order they were planned.
     *
     * @param caller the user
     * @param taskId the task
     * @param marker null for the first page, else the {@code next_marker} of the page before
     * @return the page and the marker of the next one (null on the last)
     * @throws InvalidRequestException naming {@code marker} if it is not one this API gave
     */
    @Transactional(readOnly = true)
    public MarkerPage<TransferFile> successfulTransfers(Caller caller, String taskId, String marker) {
        return filesIn(get(caller, taskId), FileState.SUCCEEDED, marker);
    }

    /**
     * One page of the source paths skipped under {@code skip_source_errors} ({@code SKIPPED} rows,
     * with the fault that skipped them).
     *
     * @param caller the user
     * @param taskId the task
     * @param marker as for {@link #successfulTransfers}
     * @return the page and the marker of the next one (null on the last)
     * @throws InvalidRequestException naming {@code marker} if it is not one this API gave
     */
    @Transactional(readOnly = true)
    public MarkerPage<TransferFile> skippedErrors(Caller caller, String taskId, String marker) {
        return filesIn(get(caller, taskId), FileState.SKIPPED, marker);
    }

    /** A page of rows by id: the marker is the last id of the page before, stable as rows change state. */
    private MarkerPage<TransferFile> filesIn(Task task, FileState state, String marker) {
        long afterId = afterIdOf(marker);
        List<TransferFile> rows = transferFiles.findByTaskIdAndStateAndIdGreaterThanOrderById(
                task.getId(), state, afterId, PageRequest.of(0, markerPageSize + 1));
        boolean more = rows.size() > markerPageSize;
        List<TransferFile> page = more ? rows.subList(0, markerPageSize) : rows;
        return new MarkerPage<>(
                page, more ? Long.toString(page.get(page.size() - 1).getId()) : null);
    }

    private static long afterIdOf(String marker) {
        if (marker == null || marker.isBlank()) {
            return 0;
        }
        try {
            long afterId = Long.parseLong(marker.trim());
            if (afterId < 0) {
                throw new NumberFormatException();
            }
            return afterId;
        } catch (NumberFormatException e) {
            throw new InvalidRequestException("marker", "marker must be a next_marker this API returned");
        }
    }

    /**
     * One page of a marker-paged list.
     *
     * @param rows the page
     * @param nextMarker the next page's marker, null on the last
     * @param <T> the row type
     */
    public record MarkerPage<T>(List<T> rows, String nextMarker) {}
}
