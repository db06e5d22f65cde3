package org.ferry.server.pages;

import java.util.List;
import org.ferry.api.identity.Caller;
import org.ferry.api.service.OptimizerService;
import org.ferry.api.service.OptimizerService.PairCourse;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * The optimizer's page ({@code /optimizer}, docs/optimizer.md): every endpoint pair the caller
 * may see (the pairs {@code GET /optimizer/current} shows them: their own and public endpoints'
 * pairs; an admin's, every pair), each with its latest decision and reason and a chart of its
 * session pairs, throughput and success rate over its last {@value #DECISIONS_CHARTED} decisions.
 */
@Controller
public class OptimizerPages {

    /** Decisions per pair the chart draws (the newest): at the default 60 s interval, one day. */
    static final int DECISIONS_CHARTED = 1440;

    private final OptimizerService optimizer;
    private final Formats formats;

    /**
     * One pair on the page.
     *
     * @param course the pair, its names and decisions
     * @param chart its chart
     */
    public record PairView(PairCourse course, OptimizerChart chart) {}

    /**
     * @param optimizer the decisions, filtered for the caller
     * @param formats display texts
     */
    public OptimizerPages(OptimizerService optimizer, Formats formats) {
        this.optimizer = optimizer;
        this.formats = formats;
    }

    /** The pairs and their charts. */
    @GetMapping("/optimizer")
    public String pairs(Caller caller, Model model) {
        List<PairView> pairs = optimizer.courses(caller, DECISIONS_CHARTED).stream()
                .map(course -> new PairView(course, OptimizerChart.of(course.decisions(), formats)))
                .toList();
        model.addAttribute("pairs", pairs);
        return "optimizer";
    }
}
