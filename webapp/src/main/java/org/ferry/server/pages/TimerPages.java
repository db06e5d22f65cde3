package org.ferry.server.pages;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.ferry.api.command.TimerDefinition;
import org.ferry.api.command.TransferSubmission;
import org.ferry.api.domain.FilterRules;
import org.ferry.api.domain.Timer;
import org.ferry.api.error.FerryException;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.identity.Caller;
import org.ferry.api.service.ApiPaths;
import org.ferry.api.service.EndpointService;
import org.ferry.api.service.Labels;
import org.ferry.api.service.TimerService;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * Timers ({@code /timers}): the caller's recurring transfers with their schedule, state and run
 * counts; pause, resume and delete; a form that makes one (a transfer of one path, every N hours
 * or on a cron expression in a time zone). The form is turned into a {@link TimerDefinition} and
 * goes through {@link TimerService}, as {@code POST /timer}'s document does.
 */
@Controller
public class TimerPages {

    private final TimerService timers;
    private final EndpointService endpoints;

    /**
     * @param timers the timer service
     * @param endpoints the endpoints the form offers
     */
    public TimerPages(TimerService timers, EndpointService endpoints) {
        this.timers = timers;
        this.endpoints = endpoints;
    }

    /** The caller's timers and the form for a new one. */
    @GetMapping("/timers")
    public String list(Caller caller, Model model) {
        List<Timer> mine = timers.list(caller);
        Map<UUID, String> schedules = new LinkedHashMap<>();
        mine.forEach(timer -> schedules.put(timer.getId(), describe(timer)));
        model.addAttribute("timers", mine);
        model.addAttribute("schedules", schedules);
        model.addAttribute("endpoints", endpoints.search(caller, null, null, null));
        return "timers";
    }

    /**
     * Makes a timer from the form; an invalid field comes back as the page's error naming it.
     *
     * @param scheduleType {@code recurring} (every {@code intervalHours}) or {@code cron}
     */
    @PostMapping("/timers")
    public String create(
            Caller caller,
            @RequestParam("name") String name,
            @RequestParam("source") String source,
            @RequestParam("sourcePath") String sourcePath,
            @RequestParam("destination") String destination,
            @RequestParam("destinationPath") String destinationPath,
            @RequestParam(name = "recursive", defaultValue = "false") boolean recursive,
            @RequestParam(name = "syncLevel", defaultValue = "") String syncLevel,
            @RequestParam(name = "deleteExtra", defaultValue = "false") boolean deleteExtra,
            @RequestParam(name = "scheduleType", defaultValue = "recurring") String scheduleType,
            @RequestParam(name = "intervalHours", defaultValue = "") String intervalHours,
            @RequestParam(name = "cron", defaultValue = "") String cron,
            @RequestParam(name = "timeZone", defaultValue = "UTC") String timeZone,
            RedirectAttributes redirect) {
        try {
            if (deleteExtra && !recursive) {
                throw new InvalidRequestException(
                        "delete_destination_extra", "Deleting the destination's extras needs a recursive path");
            }
            TransferSubmission body = new TransferSubmission(
                    null,
                    source,
                    destination,
                    Labels.check(FormValues.blankToNull(name)),
                    null,
                    List.of(new TransferSubmission.Item(
                            ApiPaths.absolute("source_path", sourcePath),
                            ApiPaths.absolute("destination_path", destinationPath),
                            recursive)),
                    new TransferSubmission.Options(
                            FormValues.syncLevel(syncLevel),
                            false,
                            false,
                            false,
                            false,
                            deleteExtra,
                            FilterRules.none(),
                            false,
                            null,
                            false),
                    TransferSubmission.Notify.all(),
                    false,
                    List.of());
            TimerDefinition.Schedule schedule = "cron".equals(scheduleType)
                    ? new TimerDefinition.Schedule("cron", null, cron.trim(), timeZone.trim(), null, null, null)
                    : new TimerDefinition.Schedule(
                            "recurring", Math.round(hours(intervalHours) * 3600), null, null, null, null, null);
            Timer created = timers.create(caller, new TimerDefinition(name, schedule, body, null));
            redirect.addFlashAttribute("notice", "Timer " + created.getName() + " was created.");
        } catch (FerryException e) {
            redirect.addFlashAttribute("error", e.getMessage() + (e.field() == null ? "" : " (" + e.field() + ")"));
        }
        return "redirect:/timers";
    }

    private static double hours(String text) {
        try {
            double hours = Double.parseDouble(text.trim());
            if (hours > 0) {
                return hours;
            }
        } catch (NumberFormatException e) {
            // the message below names the field
        }
        throw new InvalidRequestException("interval_hours", "Every how many hours: a number above 0");
    }

    /** Stops the timer's ticks until it is resumed. */
    @PostMapping("/timers/{id}/pause")
    public String pause(Caller caller, @PathVariable("id") String id, RedirectAttributes redirect) {
        return act(redirect, () -> "Timer " + timers.pause(caller, id).getName() + " was paused.");
    }

    /** Lets the timer tick again. */
    @PostMapping("/timers/{id}/resume")
    public String resume(Caller caller, @PathVariable("id") String id, RedirectAttributes redirect) {
        return act(redirect, () -> "Timer " + timers.resume(caller, id).getName() + " was resumed.");
    }

    /** Deletes the timer (its past runs' tasks stay). */
    @PostMapping("/timers/{id}/delete")
    public String delete(Caller caller, @PathVariable("id") String id, RedirectAttributes redirect) {
        return act(redirect, () -> {
            String name = timers.get(caller, id).getName();
            timers.delete(caller, id);
            return "Timer " + name + " was deleted.";
        });
    }

    private static String act(RedirectAttributes redirect, Supplier<String> action) {
        try {
            redirect.addFlashAttribute("notice", action.get());
        } catch (FerryException e) {
            redirect.addFlashAttribute("error", e.getMessage());
        }
        return "redirect:/timers";
    }

    /** @return the schedule in words, for the list */
    static String describe(Timer timer) {
        List<String> parts = new ArrayList<>();
        if ("cron".equals(timer.getScheduleType())) {
            parts.add("cron " + timer.getCronExpression() + " (" + timer.getTimeZone() + ")");
        } else if (timer.getIntervalSeconds() != null) {
            parts.add("every " + interval(timer.getIntervalSeconds()));
        } else {
            parts.add(timer.getScheduleType());
        }
        if (timer.getMaxRuns() != null) {
            parts.add(timer.getMaxRuns() + " runs at most");
        }
        return String.join(", ", parts);
    }

    private static String interval(long seconds) {
        if (seconds % 86_400 == 0) {
            return seconds / 86_400 + " d";
        }
        if (seconds % 3_600 == 0) {
            return seconds / 3_600 + " h";
        }
        if (seconds % 60 == 0) {
            return seconds / 60 + " min";
        }
        return seconds + " s";
    }
}
