package org.ferry.server.pages;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.ferry.api.domain.Task;
import org.ferry.api.domain.TaskEvent;
import org.ferry.api.error.FerryException;
import org.ferry.api.identity.Caller;
import org.ferry.api.lifecycle.TaskCancelRequestedEvent;
import org.ferry.api.lifecycle.TaskChangedEvent;
import org.ferry.api.service.TaskService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionalEventListener;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import tools.jackson.databind.ObjectMapper;

/**
 * Live task views: server-sent event streams of the task page, fed from the scheduler's
 * {@link TaskChangedEvent}s (and cancels) after their transaction committed. Each change of a
 * watched task sends its readers, in order: the events written since the last one they saw
 * ({@code event}, SSE id = the event's id, so a reconnecting browser's {@code Last-Event-ID}
 * resumes there), the chart points those events make ({@code point}), and the task's counters
 * ({@code task}); once the task has ended the stream closes.
 *
 * <p>Changes are coalesced per task and sent from a small pool of threads of its own, never from
 * the scheduler's. Every {@code ferry.web.stream-refresh-seconds} (default 15) the watched tasks
 * are sent again whether or not a change was heard: that keeps proxies from closing an idle
 * stream, finds readers that left, and shows changes another ferry-server of a cluster applied.
 */
@Component
public class TaskStreams implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(TaskStreams.class);

    /** How long a stream stays open before the browser reconnects (it does so by itself). */
    static final long STREAM_TIMEOUT_MILLIS = TimeUnit.MINUTES.toMillis(30);

    private final TaskService tasks;
    private final TaskViews views;
    private final ObjectMapper json;
    private final long refreshSeconds;
    private final Map<UUID, Set<Reader>> readers = new ConcurrentHashMap<>();
    private final Set<UUID> pending = ConcurrentHashMap.newKeySet();
    private ScheduledExecutorService executor;

    /**
     * @param tasks the task service (every read is checked against the reader's account)
     * @param views the task's JSON views
     * @param json writes the messages
     * @param refreshSeconds seconds between unconditional refreshes of the watched tasks
     */
    public TaskStreams(
            TaskService tasks,
            TaskViews views,
            ObjectMapper json,
            @Value("${ferry.web.stream-refresh-seconds:15}") long refreshSeconds) {
        this.tasks = tasks;
        this.views = views;
        this.json = json;
        this.refreshSeconds = refreshSeconds;
    }

    /**
     * Opens a stream of one task for a reader.
     *
     * @param caller the reader, who must be allowed to see the task
     * @param taskId the task
     * @param afterEventId the last event the reader has (the page's newest, or the browser's
     *     {@code Last-Event-ID} on a reconnect)
     * @return the stream; its first messages bring the reader up to date
     * @throws org.ferry.api.error.NotFoundException if the reader cannot see the task
     */
    public SseEmitter open(Caller caller, String taskId, long afterEventId) {
        Task task = tasks.get(caller, taskId);
        Reader reader =
                new Reader(caller, task.getId().toString(), afterEventId, new SseEmitter(STREAM_TIMEOUT_MILLIS));
        // the chart's last sample: what the reader's page already drew
        for (TaskEvent event : tasks.progressEvents(caller, reader.taskId)) {
            if (event.getId() <= afterEventId) {
                reader.series.add(event);
            }
        }
        Set<Reader> watching = readers.computeIfAbsent(task.getId(), id -> new CopyOnWriteArraySet<>());
        watching.add(reader);
        Runnable leave = () -> leave(task.getId(), reader);
        reader.emitter.onCompletion(leave);
        reader.emitter.onTimeout(leave);
        reader.emitter.onError(error -> leave.run());
        refresh(task.getId());
        return reader.emitter;
    }

    /** The scheduler wrote something about a task. */
    @TransactionalEventListener(fallbackExecution = true)
    public void onChanged(TaskChangedEvent changed) {
        refresh(changed.taskId());
    }

    /** Somebody cancelled a task. */
    @TransactionalEventListener(fallbackExecution = true)
    public void onCancel(TaskCancelRequestedEvent cancel) {
        refresh(cancel.taskId());
    }

    /** @return the number of open streams (a gauge of active web sessions watching tasks) */
    public int openStreams() {
        return readers.values().stream().mapToInt(Set::size).sum();
    }

    private void leave(UUID taskId, Reader reader) {
        readers.computeIfPresent(taskId, (id, set) -> {
            set.remove(reader);
            return set.isEmpty() ? null : set;
        });
    }

    /** Schedules one send to the task's readers, unless one is already waiting. */
    private void refresh(UUID taskId) {
        ScheduledExecutorService running = executor;
        if (running == null || !readers.containsKey(taskId) || !pending.add(taskId)) {
            return;
        }
        running.execute(() -> {
            pending.remove(taskId);
            Set<Reader> watching = readers.get(taskId);
            if (watching != null) {
                watching.forEach(this::send);
            }
        });
    }

    private void send(Reader reader) {
        synchronized (reader) {
            try {
                // the task before its events: a task read as ended then has its end event (written in
                // the same transaction) among the events read after it, so the stream never closes
                // before the page has the SUCCEEDED (or failure) event
                Task task = tasks.get(reader.caller, reader.taskId);
                List<TaskEvent> fresh = tasks.eventsAfter(reader.caller, reader.taskId, reader.lastEventId);
                for (TaskEvent event : fresh) {
                    reader.emitter.send(SseEmitter.event()
                            .name("event")
                            .id(Long.toString(event.getId()))
                            .data(json.writeValueAsString(views.event(event))));
                    Optional<ThroughputSeries.Point> point = reader.series.add(event);
                    if (point.isPresent()) {
                        reader.emitter.send(SseEmitter.event()
                                .name("point")
                                .data(json.writeValueAsString(views.point(point.get()))));
                    }
                    reader.lastEventId = event.getId();
                }
                Map<String, Object> view = views.task(task);
                Instant now = Instant.now();
                long moved = (Long) view.get("bytes_transferred");
                if (task.isOpen()) {
                    reader.rate.add(now, moved);
                }
                views.rate(view, task, reader.rate, () -> reader.left.get(now, moved, () -> tasks.bytesLeft(task)));
                long problems = task.getSubtasksFailed() + task.getSubtasksSkippedErrors();
                if (problems != reader.problemsSent) {
                    // the list changed: send it (once per change, not with every counter update)
                    view.put(
                            "problem_files",
                            tasks
                                    .failedAndSkippedFiles(reader.caller, reader.taskId, TaskPages.PROBLEM_FILES_SHOWN)
                                    .stream()
                                    .map(views::problemFile)
                                    .toList());
                    reader.problemsSent = problems;
                }
                reader.emitter.send(SseEmitter.event().name("task").data(json.writeValueAsString(view)));
                if (!task.isOpen()) {
                    reader.emitter.complete();
                }
            } catch (IOException | IllegalStateException e) {
                // the reader went away (or the stream was completed): forget it
                reader.emitter.completeWithError(e);
            } catch (FerryException e) {
                // the task is gone or no longer the reader's
                reader.emitter.complete();
            } catch (RuntimeException e) {
                log.warn("Live view of task {} failed", reader.taskId, e);
                reader.emitter.completeWithError(e);
            }
        }
    }

    @Override
    public synchronized void start() {
        executor = Executors.newScheduledThreadPool(2, runnable -> {
            Thread thread = new Thread(runnable, "ferry-task-streams");
            thread.setDaemon(true);
            return thread;
        });
        executor.scheduleWithFixedDelay(
                () -> readers.keySet().forEach(this::refresh), refreshSeconds, refreshSeconds, TimeUnit.SECONDS);
    }

    @Override
    public synchronized void stop() {
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
        readers.values().forEach(set -> set.forEach(reader -> reader.emitter.complete()));
        readers.clear();
    }

    @Override
    public synchronized boolean isRunning() {
        return executor != null;
    }

    /** One browser watching one task. */
    private static final class Reader {
        final Caller caller;
        final String taskId;
        final SseEmitter emitter;
        final ThroughputSeries series = new ThroughputSeries();
        final LiveRate rate = new LiveRate();
        final BytesLeft left = new BytesLeft();
        long lastEventId;
        long problemsSent = -1;

        Reader(Caller caller, String taskId, long lastEventId, SseEmitter emitter) {
            this.caller = caller;
            this.taskId = taskId;
            this.lastEventId = lastEventId;
            this.emitter = emitter;
        }
    }
}
