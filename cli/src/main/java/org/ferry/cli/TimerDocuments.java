package org.ferry.cli;

import java.io.PrintWriter;
import org.ferry.cli.output.Json;
import org.ferry.cli.output.OutputFormat;
import org.ferry.cli.output.Record;
import org.ferry.cli.output.Table;
import tools.jackson.databind.JsonNode;

/** Prints timer documents of the API. */
final class TimerDocuments {
    private TimerDocuments() {}

    /** @return a record: ID, Name, Status, Schedule, Next Run, counters, Source, Destination */
    static Record record(JsonNode timer) {
        JsonNode schedule = timer.path("schedule");
        JsonNode body = timer.path("body");
        return new Record()
                .field("Timer ID", Json.text(timer, "job_id"))
                .field("Name", Json.text(timer, "name"))
                .field("Status", Json.text(timer, "status"))
                .field("Schedule", schedule(schedule))
                .field("Start", Json.text(schedule, "start"))
                .field("End", end(schedule.path("end")))
                .field("Next Run", Json.text(timer, "next_run"))
                .field("Last Run", Json.text(timer, "last_ran_at"))
                .field("Runs", Json.text(timer, "number_of_runs"))
                .field("Skipped Ticks", Json.text(timer, "number_of_skips"))
                .field("Errors", Json.text(timer, "number_of_errors"))
                .field("Source", Json.text(body, "source_endpoint"))
                .field("Destination", Json.text(body, "destination_endpoint"));
    }

    /** @return e.g. {@code every 3600 s} or {@code cron 0 0 2 * * ? (Europe/Berlin)} */
    static String schedule(JsonNode schedule) {
        String type = Json.text(schedule, "type");
        if ("recurring".equals(type)) {
            return "every " + Json.text(schedule, "interval_seconds") + " s";
        }
        if ("cron".equals(type)) {
            return "cron " + Json.text(schedule, "cron_expression") + " (" + Json.text(schedule, "time_zone") + ")";
        }
        return "once at " + Json.text(schedule, "datetime");
    }

    private static String end(JsonNode end) {
        if (end.isMissingNode() || end.isNull()) {
            return "never";
        }
        return "iterations".equals(Json.text(end, "condition"))
                ? "after " + Json.text(end, "count") + " runs"
                : "at " + Json.text(end, "datetime");
    }

    /** Prints one timer: JSON as it is, else the record and its run history. */
    static void print(JsonNode timer, JsonNode runs, PrintWriter out, OutputFormat format) {
        record(timer).print(out, format);
        if (runs == null) {
            return;
        }
        if (format == OutputFormat.TEXT) {
            out.println();
        }
        Table table = new Table("Scheduled", "Outcome", "Task ID", "Why");
        for (JsonNode run : runs.path("runs")) {
            table.row(
                    Json.text(run, "scheduled_time"),
                    Json.text(run, "outcome"),
                    Json.text(run, "task_id"),
                    Json.text(run, "description"));
        }
        table.print(out, format);
    }
}
