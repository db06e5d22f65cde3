package org.ferry.scheduler.notify;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.springframework.web.util.HtmlUtils;

/**
 * The e-mail about a task, composed from a {@link TaskReport}: a subject with the status and the
 * label, and the same facts as plain text and as HTML (label, task id, endpoints and paths, files
 * and bytes, duration and rate; on failure the error, the files affected and what to do next).
 *
 * @param subject the subject line
 * @param text the text/plain part
 * @param html the text/html part
 */
public record NotificationMessage(String subject, String text, String html) {

    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

    /** @return the message for the report */
    public static NotificationMessage of(TaskReport report) {
        String name = report.label() == null || report.label().isBlank()
                ? "task " + report.taskId()
                : "\"" + report.label() + "\"";
        String subject = switch (report.kind()) {
            case "SUCCEEDED" -> "Ferry: SUCCEEDED: " + name;
            case "FAILED" -> "Ferry: FAILED: " + name;
            default -> "Ferry: INACTIVE (needs you): " + name;
        };
        List<String[]> facts = new ArrayList<>();
        facts.add(new String[] {"Status", report.kind()});
        facts.add(new String[] {"Label", report.label() == null ? "(none)" : report.label()});
        facts.add(new String[] {"Task ID", report.taskId().toString()});
        facts.add(new String[] {"Source", report.sourceEndpoint()});
        facts.add(new String[] {"Destination", report.destinationEndpoint()});
        facts.add(new String[] {
            "Files",
            report.filesTransferred() + " transferred, " + report.filesSkipped() + " skipped, " + report.files()
                    + " found"
        });
        facts.add(new String[] {
            "Bytes", report.bytesTransferred() + " (" + human(report.bytesTransferred()) + ") transferred"
        });
        facts.add(new String[] {"Duration", duration(report.duration())});
        facts.add(new String[] {"Rate", human(Math.round(report.bytesPerSecond())) + "/s"});
        facts.add(new String[] {"Submitted", time(report.requestTime())});
        facts.add(new String[] {"INACTIVE".equals(report.kind()) ? "Inactive since" : "Ended", time(report.endTime())});
        if (!"SUCCEEDED".equals(report.kind()) && report.deadline() != null) {
            facts.add(new String[] {"Deadline", time(report.deadline())});
        }
        String error = null;
        if ("FAILED".equals(report.kind())) {
            error = (report.errorCode() == null ? "UNKNOWN" : report.errorCode())
                    + (report.errorDescription() == null ? "" : ": " + report.errorDescription());
        } else if ("INACTIVE".equals(report.kind())) {
            error = report.errorDescription();
        }
        String next = nextSteps(report);

        StringBuilder text = new StringBuilder();
        text.append(subject.substring("Ferry: ".length())).append("\n\n");
        for (String[] fact : facts) {
            text.append(String.format(Locale.ROOT, "%-15s %s%n", fact[0] + ":", fact[1]));
        }
        text.append("\nPaths:\n");
        for (String item : report.items()) {
            text.append("  ").append(item).append('\n');
        }
        if (error != null) {
            text.append("\nError:\n  ").append(error).append('\n');
        }
        if (!report.failedFiles().isEmpty()) {
            text.append("\nFiles affected (").append(report.failedFileCount()).append(" failed):\n");
            for (String file : report.failedFiles()) {
                text.append("  ").append(file).append('\n');
            }
            if (report.failedFileCount() > report.failedFiles().size()) {
                text.append("  ... and ")
                        .append(report.failedFileCount() - report.failedFiles().size())
                        .append(" more\n");
            }
        }
        if (next != null) {
            text.append("\nWhat to do next:\n  ").append(next).append('\n');
        }
        text.append("\nDetails: ferry details ")
                .append(report.taskId())
                .append("   Events: ferry events ")
                .append(report.taskId())
                .append('\n');

        StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html><html><body style=\"font-family:sans-serif\">");
        html.append("<h2>").append(esc(subject.substring("Ferry: ".length()))).append("</h2>");
        html.append("<table>");
        for (String[] fact : facts) {
            html.append("<tr><th style=\"text-align:left;padding-right:1em\">")
                    .append(esc(fact[0]))
                    .append("</th><td>")
                    .append(esc(fact[1]))
                    .append("</td></tr>");
        }
        html.append("</table><h3>Paths</h3><ul>");
        for (String item : report.items()) {
            html.append("<li><code>").append(esc(item)).append("</code></li>");
        }
        html.append("</ul>");
        if (error != null) {
            html.append("<h3>Error</h3><p>").append(esc(error)).append("</p>");
        }
        if (!report.failedFiles().isEmpty()) {
            html.append("<h3>Files affected (").append(report.failedFileCount()).append(" failed)</h3><ul>");
            for (String file : report.failedFiles()) {
                html.append("<li><code>").append(esc(file)).append("</code></li>");
            }
            html.append("</ul>");
        }
        if (next != null) {
            html.append("<h3>What to do next</h3><p>").append(esc(next)).append("</p>");
        }
        html.append("<p>Details: <code>ferry details ")
                .append(report.taskId())
                .append("</code>, events: <code>ferry events ")
                .append(report.taskId())
                .append("</code></p></body></html>");
        return new NotificationMessage(subject, text.toString(), html.toString());
    }

    private static String nextSteps(TaskReport report) {
        return switch (report.kind()) {
            case "FAILED" ->
                "Fix the cause named above (a missing or unreadable path, a full destination, an endpoint"
                        + " that is down), then submit the transfer again with a sync level (for example"
                        + " ferry transfer --sync-level checksum ...): files that already arrived are not sent again.";
            case "INACTIVE" ->
                "Activate the endpoint again (ferry endpoint activate NAME) before the deadline"
                        + (report.deadline() == null ? "" : " (" + time(report.deadline()) + ")")
                        + ": the task keeps what it has moved and resumes by itself. Otherwise it fails at"
                        + " its deadline.";
            default -> null;
        };
    }

    private static String esc(String value) {
        return HtmlUtils.htmlEscape(value == null ? "" : value);
    }

    private static String time(Instant instant) {
        return instant == null ? "-" : TIME.format(instant);
    }

    /** @return "1h 02m 03s", "2m 05s", "1.234s" */
    static String duration(Duration duration) {
        long seconds = duration.getSeconds();
        if (seconds >= 3600) {
            return String.format(Locale.ROOT, "%dh %02dm %02ds", seconds / 3600, seconds % 3600 / 60, seconds % 60);
        }
        if (seconds >= 60) {
            return String.format(Locale.ROOT, "%dm %02ds", seconds / 60, seconds % 60);
        }
        return String.format(Locale.ROOT, "%.3fs", duration.toMillis() / 1000.0);
    }

    /** @return bytes in binary units, "1.50 MiB" */
    static String human(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
        double value = bytes;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.2f %s", value, units[unit]);
    }
}
