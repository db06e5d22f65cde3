package org.ferry.api.web;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.ferry.api.document.TimerDocument;
import org.ferry.api.document.TimerListDocument;
import org.ferry.api.document.TimerRequest;
import org.ferry.api.document.TimerRunListDocument;
import org.ferry.api.domain.Timer;
import org.ferry.api.domain.TimerRun;
import org.ferry.api.identity.Caller;
import org.ferry.api.repository.TimerRunRepository;
import org.ferry.api.service.TimerSchedule;
import org.ferry.api.service.TimerService;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Timers in the shape of Globus Timers (service-semantics b.8), under Ferry's API root:
 * {@code POST /timer} (201), {@code GET /timer}, {@code GET|PATCH|DELETE /timer/{id}},
 * {@code POST /timer/{id}/pause}, {@code POST /timer/{id}/resume} and
 * {@code GET /timer/{id}/runs} (the run history: each tick's task, or why it was skipped).
 */
@RestController
@RequestMapping(path = "/v0.10", produces = "application/json")
public class TimerController {

    private final TimerService timers;
    private final TimerRunRepository runs;
    private final TimerSchedule schedule;
    private final JsonMapper json;
    private final TimerDocuments documents;

    /**
     * @param timers timer service
     * @param runs run history
     * @param schedule next ticks
     * @param json reads stored bodies
     * @param documents maps timer documents to timer definitions, field by field
     */
    public TimerController(
            TimerService timers,
            TimerRunRepository runs,
            TimerSchedule schedule,
            JsonMapper json,
            TimerDocuments documents) {
        this.timers = timers;
        this.runs = runs;
        this.schedule = schedule;
        this.json = json;
        this.documents = documents;
    }

    /** {@code POST /timer}: 201 with the timer document. */
    @PostMapping("/timer")
    public ResponseEntity<TimerDocument> create(Caller caller, @RequestBody TimerRequest body) {
        return ResponseEntity.status(HttpStatus.CREATED)
                .body(document(timers.create(caller, documents.definition(body))));
    }

    /** {@code GET /timer}: the caller's timers. */
    @GetMapping("/timer")
    public TimerListDocument list(Caller caller) {
        List<TimerDocument> out = new ArrayList<>();
        for (Timer timer : timers.list(caller)) {
            out.add(document(timer));
        }
        return new TimerListDocument(out);
    }

    /** {@code GET /timer/{id}}. */
    @GetMapping("/timer/{id}")
    public TimerDocument show(Caller caller, @PathVariable String id) {
        return document(timers.get(caller, id));
    }

    /** {@code PATCH /timer/{id}}: changes the fields given ({@code name}, {@code schedule}, {@code body}). */
    @PatchMapping("/timer/{id}")
    public TimerDocument update(Caller caller, @PathVariable String id, @RequestBody TimerRequest body) {
        return document(timers.update(caller, id, documents.definition(body)));
    }

    /** {@code POST /timer/{id}/pause}. */
    @PostMapping("/timer/{id}/pause")
    public TimerDocument pause(Caller caller, @PathVariable String id) {
        return document(timers.pause(caller, id));
    }

    /** {@code POST /timer/{id}/resume}: from the next tick after now. */
    @PostMapping("/timer/{id}/resume")
    public TimerDocument resume(Caller caller, @PathVariable String id) {
        return document(timers.resume(caller, id));
    }

    /** {@code DELETE /timer/{id}}: 200 with the timer as it was, status {@code deleted}. */
    @DeleteMapping("/timer/{id}")
    public TimerDocument delete(Caller caller, @PathVariable String id) {
        TimerDocument before = document(timers.get(caller, id));
        timers.delete(caller, id);
        return new TimerDocument(
                before.dataType(),
                before.jobId(),
                before.name(),
                before.timerType(),
                before.owner(),
                "deleted",
                null,
                before.submittedAt(),
                before.lastRanAt(),
                null,
                before.numberOfRuns(),
                before.numberOfSkips(),
                before.numberOfErrors(),
                before.schedule(),
                before.body(),
                activity("ended"),
                before.notifyOn());
    }

    /** {@code GET /timer/{id}/runs}: each tick in scheduled order. */
    @GetMapping("/timer/{id}/runs")
    public TimerRunListDocument runs(Caller caller, @PathVariable String id) {
        Timer timer = timers.get(caller, id);
        List<TimerRunListDocument.Run> out = new ArrayList<>();
        for (TimerRun run : runs.findByTimerIdOrderByScheduledTime(timer.getId())) {
            out.add(new TimerRunListDocument.Run(
                    ApiTime.format(run.getScheduledTime()),
                    ApiTime.format(run.getFiredTime()),
                    run.getOutcome(),
                    run.getTaskId() == null ? null : run.getTaskId().toString(),
                    run.getDescription()));
        }
        return new TimerRunListDocument("timer_run_list", timer.getId().toString(), out);
    }

    private TimerDocument document(Timer timer) {
        ObjectNode scheduleNode = json.createObjectNode();
        scheduleNode.put("type", timer.getScheduleType());
        if (Timer.ONCE.equals(timer.getScheduleType())) {
            scheduleNode.put("datetime", ApiTime.format(timer.getStartTime()));
        } else {
            if (timer.getIntervalSeconds() != null) {
                scheduleNode.put("interval_seconds", timer.getIntervalSeconds());
            }
            if (timer.getCronExpression() != null) {
                scheduleNode.put("cron_expression", timer.getCronExpression());
                scheduleNode.put("time_zone", timer.getTimeZone());
            }
            scheduleNode.put("start", ApiTime.format(timer.getStartTime()));
            if (timer.getMaxRuns() != null) {
                ObjectNode end = scheduleNode.putObject("end");
                end.put("condition", "iterations");
                end.put("count", timer.getMaxRuns());
            } else if (timer.getEndTime() != null) {
                ObjectNode end = scheduleNode.putObject("end");
                end.put("condition", "time");
                end.put("datetime", ApiTime.format(timer.getEndTime()));
            }
        }
        Instant next = Timer.ACTIVE.equals(timer.getStatus()) ? schedule.nextRun(timer.getId()) : null;
        ObjectNode inactive = null;
        if (Timer.INACTIVE.equals(timer.getStatus())) {
            inactive = json.createObjectNode();
            inactive.put("cause", "user");
            inactive.put("detail", "paused by its owner");
        }
        String activity = switch (timer.getStatus()) {
            case Timer.INACTIVE -> "paused";
            case Timer.ENDED -> "ended";
            default -> "awaiting_next_run";
        };
        return new TimerDocument(
                "timer",
                timer.getId().toString(),
                timer.getName(),
                "transfer",
                timer.getOwnerName(),
                timer.getStatus(),
                inactive,
                ApiTime.format(timer.getSubmittedAt()),
                ApiTime.format(timer.getLastRanAt()),
                ApiTime.format(next),
                timer.getNumberOfRuns(),
                timer.getNumberOfSkips(),
                timer.getNumberOfErrors(),
                scheduleNode,
                json.readTree(timer.getBody()),
                activity(activity),
                timer.getNotifyOn());
    }

    private JsonNode activity(String code) {
        ObjectNode node = json.createObjectNode();
        node.put("code", code);
        return node;
    }
}
