package org.ferry.server.pages;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.ferry.api.domain.OptimizerDecision;

/**
 * The optimizer page's chart of one endpoint pair, drawn as inline SVG by the template (no script,
 * no library): three strips over one time axis, the session pairs allowed (a step line: a value
 * holds until the next decision), the throughput's moving average and the success rate, each
 * scaled from 0 to its largest value in the course.
 *
 * @param width the drawing's width, SVG user units
 * @param height its height
 * @param strips the three strips, top to bottom
 * @param firstTime the first decision's time, as text
 * @param lastTime the last decision's time, as text
 * @param decisions how many decisions are drawn
 */
public record OptimizerChart(
        int width, int height, List<OptimizerChart.Strip> strips, String firstTime, String lastTime, int decisions) {

    /** Width of the drawing. */
    static final int WIDTH = 640;
    /** Height of one strip's plot. */
    static final int PLOT = 56;
    /** Room above a plot for its label. */
    static final int LABEL = 18;
    /** Room at the left and right of the plots. */
    static final int MARGIN = 6;

    /**
     * One quantity over time.
     *
     * @param id {@code concurrency}, {@code throughput} or {@code success-rate}
     * @param label its name and scale, e.g. {@code Session pairs (0 to 8)}
     * @param top y of the plot's top edge
     * @param bottom y of its bottom edge (the value 0)
     * @param points the SVG polyline's points, {@code x,y x,y ...}
     * @param lastX x of the latest value
     * @param lastY y of the latest value
     * @param latest the latest value as text
     */
    public record Strip(
            String id, String label, int top, int bottom, String points, double lastX, double lastY, String latest) {}

    /**
     * @param decisions a pair's decisions, oldest first, at least one
     * @param formats display texts
     * @return the chart
     * @throws IllegalArgumentException for no decisions
     */
    public static OptimizerChart of(List<OptimizerDecision> decisions, Formats formats) {
        if (decisions.isEmpty()) {
            throw new IllegalArgumentException("a chart needs at least one decision");
        }
        OptimizerDecision last = decisions.get(decisions.size() - 1);
        double concurrencyTop = Math.max(
                1,
                decisions.stream()
                        .mapToInt(OptimizerDecision::concurrency)
                        .max()
                        .orElse(1));
        double throughputTop = decisions.stream()
                .mapToDouble(OptimizerDecision::throughputEma)
                .max()
                .orElse(0);
        List<Strip> strips = new ArrayList<>();
        strips.add(strip(
                decisions,
                0,
                "concurrency",
                "Session pairs (0 to " + (int) concurrencyTop + ")",
                OptimizerDecision::concurrency,
                concurrencyTop,
                true,
                Integer.toString(last.concurrency())));
        strips.add(strip(
                decisions,
                1,
                "throughput",
                "Throughput, moving average (0 to " + formats.rate(throughputTop) + ")",
                OptimizerDecision::throughputEma,
                throughputTop <= 0 ? 1 : throughputTop,
                false,
                formats.rate(last.throughputEma())));
        strips.add(strip(
                decisions,
                2,
                "success-rate",
                "Success rate (0 to 100 %)",
                OptimizerDecision::successRate,
                100,
                false,
                String.format(Locale.ROOT, "%.1f %%", last.successRate())));
        return new OptimizerChart(
                WIDTH,
                3 * (LABEL + PLOT) + 4,
                strips,
                formats.time(decisions.get(0).time()),
                formats.time(last.time()),
                decisions.size());
    }

    private static Strip strip(
            List<OptimizerDecision> decisions,
            int index,
            String id,
            String label,
            ToDoubleFunction<OptimizerDecision> value,
            double top,
            boolean stepped,
            String latest) {
        int plotTop = index * (LABEL + PLOT) + LABEL;
        int plotBottom = plotTop + PLOT;
        Instant first = decisions.get(0).time();
        double span = decisions.get(decisions.size() - 1).time().toEpochMilli() - first.toEpochMilli();
        StringBuilder points = new StringBuilder();
        double x = 0;
        double y = 0;
        for (int i = 0; i < decisions.size(); i++) {
            OptimizerDecision d = decisions.get(i);
            double nextX = span <= 0
                    ? WIDTH - MARGIN
                    : MARGIN + (d.time().toEpochMilli() - first.toEpochMilli()) / span * (WIDTH - 2 * MARGIN);
            double nextY = plotBottom - Math.max(0, Math.min(1, value.applyAsDouble(d) / top)) * PLOT;
            if (stepped && i > 0) {
                // the value before held until this decision
                point(points, nextX, y);
            }
            point(points, nextX, nextY);
            x = nextX;
            y = nextY;
        }
        return new Strip(id, label, plotTop, plotBottom, points.toString().trim(), round(x), round(y), latest);
    }

    private static void point(StringBuilder points, double x, double y) {
        points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }
}
