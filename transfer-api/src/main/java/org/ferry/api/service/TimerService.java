package org.ferry.api.service;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.ferry.api.command.TimerDefinition;
import org.ferry.api.command.TransferSubmission;
import org.ferry.api.domain.Timer;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.error.NotFoundException;
import org.ferry.api.identity.Caller;
import org.ferry.api.repository.TimerRepository;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Timers (Globus Timers' shape): checks a timer's schedule by its rules (errors name e.g.
 * {@code timer.schedule.interval_seconds}) and its transfer's endpoints, stores it with its
 * transfer document ({@link TransferBodies}), and keeps its Quartz trigger in step through
 * {@link TimerSchedule} in the same transaction: active timers have a trigger, paused and ended
 * ones none.
 */
@Service
public class TimerService {

    /** The shortest interval: a tick every second is already more than any sync needs. */
    static final long MIN_INTERVAL_SECONDS = 1;

    private final TimerRepository timers;
    private final TransferService transfers;
    private final TimerSchedule schedule;
    private final TransferBodies bodies;

    /**
     * @param timers timer store
     * @param transfers checks the transfer's endpoints
     * @param schedule the timers' clock (Quartz)
     * @param bodies writes the stored transfer document
     */
    public TimerService(
            TimerRepository timers, TransferService transfers, TimerSchedule schedule, TransferBodies bodies) {
        this.timers = timers;
        this.transfers = transfers;
        this.schedule = schedule;
        this.bodies = bodies;
    }

    /**
     * @param caller the owner-to-be
     * @param fields the timer (schedule and body required)
     * @return the new, active timer
     * @throws InvalidRequestException naming the field
     * @throws NotFoundException for an endpoint the caller cannot see
     */
    @Transactional
    public Timer create(Caller caller, TimerDefinition fields) {
        if (fields.schedule() == null) {
            throw new InvalidRequestException("timer.schedule", "timer.schedule is required");
        }
        if (fields.body() == null) {
            throw new InvalidRequestException("timer.body", "timer.body is required: a transfer document");
        }
        String name = name(fields.name());
        Timer timer = new Timer(caller.name(), name, body(caller, fields.body()));
        if (fields.notifyOn() != null) {
            timer.setNotifyOn(notifyOn(fields.notifyOn()));
        }
        applySchedule(timer, fields.schedule());
        timers.saveAndFlush(timer);
        schedule.schedule(timer, timer.getStartTime()); // tick 0 is the start itself
        return timer;
    }

    /**
     * @param caller the user
     * @return the caller's timers (an admin's: all), oldest first
     */
    @Transactional(readOnly = true)
    public List<Timer> list(Caller caller) {
        return caller.admin()
                ? timers.findAllByOrderBySubmittedAt()
                : timers.findByOwnerNameOrderBySubmittedAt(caller.name());
    }

    /**
     * @param caller the user
     * @param id the timer id
     * @return the timer
     * @throws NotFoundException if absent or another user's
     */
    @Transactional(readOnly = true)
    public Timer get(Caller caller, String id) {
        return visible(caller, id, timers.findById(uuid(id)).orElse(null));
    }

    /**
     * The timer a change (update, pause, resume, delete) starts from, its row locked until the
     * change commits ({@link TimerRepository#findByIdForUpdate}): a tick under way has recorded its
     * run before, so the change neither writes back counters or a status the tick changed
     * meanwhile nor takes Quartz's locks before the timer row (the order a tick takes them in).
     */
    private Timer getForChange(Caller caller, String id) {
        return visible(caller, id, timers.findByIdForUpdate(uuid(id)).orElse(null));
    }

    private static UUID uuid(String id) {
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw new NotFoundException("job_id", "No timer " + id);
        }
    }

    private static Timer visible(Caller caller, String id, Timer timer) {
        if (timer == null || !(caller.admin() || caller.owns(timer.getOwnerName()))) {
            throw new NotFoundException("job_id", "No timer " + id);
        }
        return timer;
    }

    /**
     * Changes the fields given: name, schedule (the trigger is made again from now), body.
     *
     * @return the timer
     */
    @Transactional
    public Timer update(Caller caller, String id, TimerDefinition fields) {
        Timer timer = getForChange(caller, id);
        if (fields.name() != null) {
            timer.rename(name(fields.name()));
        }
        if (fields.body() != null) {
            timer.replaceBody(body(caller, fields.body()));
        }
        if (fields.notifyOn() != null) {
            timer.setNotifyOn(notifyOn(fields.notifyOn()));
        }
        if (fields.schedule() != null) {
            if (Timer.ENDED.equals(timer.getStatus())) {
                throw new InvalidRequestException("timer.schedule", "The timer has ended; create a new one");
            }
            applySchedule(timer, fields.schedule());
            if (Timer.ACTIVE.equals(timer.getStatus())) {
                schedule.schedule(timer, Instant.now());
            }
        }
        return timers.saveAndFlush(timer);
    }

    /** Pauses an active timer: no tick fires until it is resumed. */
    @Transactional
    public Timer pause(Caller caller, String id) {
        Timer timer = getForChange(caller, id);
        if (Timer.ENDED.equals(timer.getStatus())) {
            throw new InvalidRequestException("job_id", "The timer has ended");
        }
        timer.setStatus(Timer.INACTIVE);
        schedule.unschedule(timer.getId());
        return timers.saveAndFlush(timer);
    }

    /** Resumes a paused timer from the next tick after now (missed ticks are not made up). */
    @Transactional
    public Timer resume(Caller caller, String id) {
        Timer timer = getForChange(caller, id);
        if (Timer.ENDED.equals(timer.getStatus())) {
            throw new InvalidRequestException("job_id", "The timer has ended");
        }
        if (!Timer.ACTIVE.equals(timer.getStatus())) {
            timer.setStatus(Timer.ACTIVE);
            schedule.schedule(timer, Instant.now());
        }
        return timers.saveAndFlush(timer);
    }

    /** Deletes a timer and its run history (its tasks stay). */
    @Transactional
    public void delete(Caller caller, String id) {
        Timer timer = getForChange(caller, id);
        schedule.unschedule(timer.getId());
        timers.delete(timer);
    }

    private static String name(String name) {
        if (name == null || name.isBlank()) {
            return "Timer created " + Instant.now();
        }
        if (name.length() > 128 || name.contains("\n")) {
            throw new InvalidRequestException("timer.name", "timer.name: at most 128 characters on one line");
        }
        return name.strip();
    }

    private static String notifyOn(String value) {
        if (!Timer.NOTIFY_EVERY_RUN.equals(value) && !Timer.NOTIFY_FAILURE.equals(value)) {
            throw new InvalidRequestException(
                    "timer.notify_on", "timer.notify_on must be 'every_run' or 'failure'; was '" + value + "'");
        }
        return value;
    }

    /** @return the transfer document to store, once the caller can see its endpoints */
    private String body(Caller caller, TransferSubmission body) {
        try {
            transfers.checkEndpoints(caller, body);
        } catch (InvalidRequestException e) {
            throw new InvalidRequestException(prefixed(e.field()), "timer.body: " + e.getMessage());
        } catch (NotFoundException e) {
            throw new NotFoundException(prefixed(e.field()), "timer.body: " + e.getMessage());
        }
        return bodies.write(body); // without a submission id: each run gets its own
    }

    private static String prefixed(String field) {
        return field == null ? "timer.body" : "timer.body." + field;
    }

    private void applySchedule(Timer timer, TimerDefinition.Schedule given) {
        String type = given.type() == null ? "" : given.type().trim().toLowerCase(Locale.ROOT);
        Instant now = Instant.now();
        switch (type) {
            case Timer.RECURRING -> {
                if (given.intervalSeconds() == null || given.intervalSeconds() < MIN_INTERVAL_SECONDS) {
                    throw new InvalidRequestException(
                            "timer.schedule.interval_seconds",
                            "timer.schedule.interval_seconds: a whole number of seconds, at least "
                                    + MIN_INTERVAL_SECONDS);
                }
                Instant start = given.start() != null ? given.start() : now;
                End end = end(given.end(), start);
                timer.schedule(Timer.RECURRING, given.intervalSeconds(), null, null, start, end.time, end.runs);
            }
            case Timer.CRON -> {
                if (given.cronExpression() == null || given.cronExpression().isBlank()) {
                    throw new InvalidRequestException(
                            "timer.schedule.cron_expression", "timer.schedule.cron_expression is required");
                }
                try {
                    schedule.checkCron(given.cronExpression());
                } catch (IllegalArgumentException e) {
                    throw new InvalidRequestException(
                            "timer.schedule.cron_expression",
                            "timer.schedule.cron_expression: " + e.getMessage()
                                    + " (Quartz syntax: seconds minutes hours day-of-month month day-of-week)");
                }
                String zone = given.timeZone() == null || given.timeZone().isBlank() ? "UTC" : given.timeZone();
                try {
                    ZoneId.of(zone);
                } catch (DateTimeException e) {
                    throw new InvalidRequestException(
                            "timer.schedule.time_zone", "timer.schedule.time_zone: unknown time zone '" + zone + "'");
                }
                Instant start = given.start() != null ? given.start() : now;
                End end = end(given.end(), start);
                timer.schedule(Timer.CRON, null, given.cronExpression().trim(), zone, start, end.time, end.runs);
            }
            case Timer.ONCE -> {
                Instant at = given.datetime() != null ? given.datetime() : now;
                timer.schedule(Timer.ONCE, null, null, null, at, null, 1);
            }
            default ->
                throw new InvalidRequestException(
                        "timer.schedule.type",
                        "timer.schedule.type must be recurring, cron or once; was '" + given.type() + "'");
        }
    }

    private record End(Instant time, Integer runs) {}

    private static End end(TimerDefinition.End end, Instant start) {
        if (end == null || end.condition() == null) {
            return new End(null, null);
        }
        switch (end.condition().trim().toLowerCase(Locale.ROOT)) {
            case "iterations" -> {
                Integer runs = end.count();
                if (runs == null || runs < 1) {
                    throw new InvalidRequestException(
                            "timer.schedule.end.count", "timer.schedule.end.count: the number of runs, at least 1");
                }
                return new End(null, runs);
            }
            case "time" -> {
                Instant at = end.datetime();
                if (at == null || !at.isAfter(start)) {
                    throw new InvalidRequestException(
                            "timer.schedule.end.datetime", "timer.schedule.end.datetime must be after the start");
                }
                return new End(at, null);
            }
            default ->
                throw new InvalidRequestException(
                        "timer.schedule.end.condition", "timer.schedule.end.condition must be iterations or time");
        }
    }
}
