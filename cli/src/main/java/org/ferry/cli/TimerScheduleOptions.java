package org.ferry.cli;

import java.time.Duration;
import java.time.Instant;
import picocli.CommandLine.Option;
import tools.jackson.databind.node.ObjectNode;

/**
 * The schedule options of {@code ferry timer create} and {@code update}, as globus-cli's
 * {@code timer create transfer} (plus {@code --cron}/{@code --time-zone}): {@code --interval}
 * ({@code 1h30m}, {@code 500s}, {@code 1d}) or {@code --cron EXPR [--time-zone ZONE]},
 * {@code --start TIME}, and {@code --stop-after-date TIME} or {@code --stop-after-runs N}.
 */
final class TimerScheduleOptions {

    @Option(
            names = "--interval",
            paramLabel = "DURATION",
            converter = TimeArguments.DurationConverter.class,
            description = "Run every DURATION (w/d/h/m/s, e.g. 1d, 1h30m, 500s).")
    Duration interval;

    @Option(
            names = "--cron",
            paramLabel = "EXPR",
            description = "Run on a Quartz cron expression: seconds minutes hours day-of-month month day-of-week,"
                    + " e.g. '0 0 2 * * ?' (02:00 every day).")
    String cron;

    @Option(
            names = "--time-zone",
            paramLabel = "ZONE",
            description = "The cron expression's time zone, e.g. Europe/Berlin (default UTC).")
    String timeZone;

    @Option(
            names = "--start",
            paramLabel = "TIME",
            converter = TimeArguments.DeadlineConverter.class,
            description = "The first run: ISO-8601 with an offset, or +DURATION from now (default now).")
    String start;

    @Option(
            names = "--stop-after-date",
            paramLabel = "TIME",
            converter = TimeArguments.DeadlineConverter.class,
            description = "No run after TIME (ISO-8601 with an offset, or +DURATION).")
    String stopAfterDate;

    @Option(
            names = "--stop-after-runs",
            paramLabel = "N",
            description = "End after N runs (skipped ticks do not count).")
    Integer stopAfterRuns;

    /** @return true if any schedule option was given */
    boolean given() {
        return interval != null || cron != null || start != null || stopAfterDate != null || stopAfterRuns != null;
    }

    /**
     * @param schedule where the schedule goes
     * @throws IllegalArgumentException for contradicting options
     */
    void write(ObjectNode schedule) {
        if (interval != null && cron != null) {
            throw new IllegalArgumentException("give --interval or --cron, not both");
        }
        if (stopAfterDate != null && stopAfterRuns != null) {
            throw new IllegalArgumentException("give --stop-after-date or --stop-after-runs, not both");
        }
        if (interval == null && cron == null) {
            if (stopAfterRuns != null && stopAfterRuns != 1) {
                throw new IllegalArgumentException("a timer without --interval or --cron runs once");
            }
            schedule.put("type", "once");
            if (start != null) {
                schedule.put("datetime", start);
            }
            return;
        }
        if (interval != null) {
            schedule.put("type", "recurring");
            schedule.put("interval_seconds", interval.toSeconds());
        } else {
            schedule.put("type", "cron");
            schedule.put("cron_expression", cron);
            if (timeZone != null) {
                schedule.put("time_zone", timeZone);
            }
        }
        if (start != null) {
            schedule.put("start", start);
        }
        if (stopAfterRuns != null) {
            ObjectNode end = schedule.putObject("end");
            end.put("condition", "iterations");
            end.put("count", stopAfterRuns);
        } else if (stopAfterDate != null) {
            ObjectNode end = schedule.putObject("end");
            end.put("condition", "time");
            end.put("datetime", stopAfterDate);
        }
    }

    /** @return the default name, as globus-cli's */
    static String defaultName() {
        return "CLI Created Timer [" + Instant.now() + "]";
    }
}
