package org.ferry.server.pages;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ferry.api.domain.EventCode;
import org.ferry.api.domain.TaskEvent;

/**
 * The throughput of a task over its life, from the counters its events carry: STARTED is the
 * origin (a point of 0 bytes at rate 0), each PROGRESS and the SUCCEEDED event give
 * {@code bytes_transferred} at their time, and the rate of a point is the bytes moved since the
 * previous sample over the seconds between them (a chart draws it as a step over that interval). Feed it events oldest first; a live view keeps one and feeds it the new events.
 */
public final class ThroughputSeries {

    private static final Pattern BYTES = Pattern.compile("\"bytes_transferred\"\\s*:\\s*(\\d+)");

    private Instant lastTime;
    private long lastBytes;

    /**
     * A point of the chart.
     *
     * @param epochSeconds when, seconds since 1970 (fractions kept)
     * @param bytesPerSecond the rate since the sample before
     * @param bytesTransferred the task's bytes so far
     */
    public record Point(double epochSeconds, double bytesPerSecond, long bytesTransferred) {}

    /**
     * @param events a task's events, oldest first
     * @return the points they give
     */
    public static List<Point> of(List<TaskEvent> events) {
        ThroughputSeries series = new ThroughputSeries();
        List<Point> points = new ArrayList<>();
        for (TaskEvent event : events) {
            series.add(event).ifPresent(points::add);
        }
        return points;
    }

    /**
     * @param event the next event (any code: those without counters give nothing)
     * @return the point it makes, if it carries counters and follows a sample
     */
    public Optional<Point> add(TaskEvent event) {
        return add(event.getCode(), event.getTime(), event.getDetails());
    }

    /**
     * @param code the event's code
     * @param time when it was written
     * @param details its details (PROGRESS and SUCCEEDED: JSON with {@code bytes_transferred})
     * @return the point it makes, if it carries counters and follows a sample
     */
    public Optional<Point> add(String code, Instant time, String details) {
        if (EventCode.STARTED.name().equals(code)) {
            if (lastTime != null) {
                return Optional.empty(); // a restart's second STARTED: the counters go on
            }
            lastTime = time;
            lastBytes = 0;
            return Optional.of(new Point(lastTime.toEpochMilli() / 1000.0, 0, 0));
        }
        if (!EventCode.PROGRESS.name().equals(code)
                && !EventCode.SUCCEEDED.name().equals(code)) {
            return Optional.empty();
        }
        Matcher matcher = details == null ? null : BYTES.matcher(details);
        if (matcher == null || !matcher.find()) {
            return Optional.empty();
        }
        long bytes = Long.parseLong(matcher.group(1));
        Optional<Point> point = Optional.empty();
        if (lastTime != null) {
            double seconds = (time.toEpochMilli() - lastTime.toEpochMilli()) / 1000.0;
            // two samples in the same millisecond give no rate; a restart that counted less gives 0
            if (seconds > 0) {
                double rate = Math.max(0, bytes - lastBytes) / seconds;
                point = Optional.of(new Point(time.toEpochMilli() / 1000.0, rate, bytes));
            }
        }
        lastTime = time;
        lastBytes = bytes;
        return point;
    }
}
