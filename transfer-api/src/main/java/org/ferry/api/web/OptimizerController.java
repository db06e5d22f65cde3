package org.ferry.api.web;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import org.ferry.api.document.OptimizerDecisionDocument;
import org.ferry.api.document.OptimizerDecisionListDocument;
import org.ferry.api.document.OptimizerLimitsDocument;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.EndpointLimits;
import org.ferry.api.domain.OptimizerDecision;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.identity.Caller;
import org.ferry.api.service.OptimizerService;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The optimizer (docs/optimizer.md): its decisions per endpoint pair ({@code GET /optimizer/current},
 * {@code GET /optimizer/evolution?source=&destination=}, as FTS3's REST names them) and an
 * endpoint's limits ({@code GET/PUT /endpoint/{id}/optimizer_limits}, PUT for admins only).
 */
@RestController
@RequestMapping(path = "/v0.10", produces = "application/json")
public class OptimizerController {

    /** Most decisions one evolution call returns. */
    public static final int MAX_EVOLUTION_LIMIT = 10_000;

    private final OptimizerService optimizer;

    /** @param optimizer decisions and limits */
    public OptimizerController(OptimizerService optimizer) {
        this.optimizer = optimizer;
    }

    /** {@code GET /endpoint/{id or name}/optimizer_limits}: the endpoint's limits (null: the default). */
    @GetMapping("/endpoint/{endpoint}/optimizer_limits")
    public OptimizerLimitsDocument limits(Caller caller, @PathVariable("endpoint") String endpoint) {
        EndpointLimits limits = optimizer.limits(caller, endpoint);
        return document(optimizer.idOf(caller, endpoint), limits);
    }

    /**
     * {@code PUT /endpoint/{id or name}/optimizer_limits}: replaces the endpoint's limits (an absent
     * or null field takes the default); admins only (403 otherwise), 400 naming the field for a
     * value below 1, too large, or a minimum above the maximum.
     */
    @PutMapping("/endpoint/{endpoint}/optimizer_limits")
    public OptimizerLimitsDocument updateLimits(
            Caller caller, @PathVariable("endpoint") String endpoint, @RequestBody OptimizerLimitsDocument body) {
        EndpointLimits limits = new EndpointLimits(body.minConcurrency(), body.maxConcurrency(), body.maxParallelism());
        Endpoint updated = optimizer.updateLimits(caller, endpoint, limits);
        return document(updated.getId().toString(), limits);
    }

    /**
     * {@code GET /optimizer/current}: the latest decision of every endpoint pair the caller may see
     * (both endpoints their own or public; an admin sees all), newest first.
     */
    @GetMapping("/optimizer/current")
    public OptimizerDecisionListDocument current(Caller caller) {
        return list(optimizer.current(caller));
    }

    /**
     * {@code GET /optimizer/evolution?source=&destination=[&since=ISO-8601][&limit=N]}: one pair's
     * decisions, oldest first (the newest {@code limit}, default 1000).
     */
    @GetMapping("/optimizer/evolution")
    public OptimizerDecisionListDocument evolution(
            Caller caller,
            @RequestParam("source") String source,
            @RequestParam("destination") String destination,
            @RequestParam(name = "since", required = false) String since,
            @RequestParam(name = "limit", defaultValue = "1000") int limit) {
        if (limit < 1 || limit > MAX_EVOLUTION_LIMIT) {
            throw new InvalidRequestException("limit", "limit must be between 1 and " + MAX_EVOLUTION_LIMIT);
        }
        Instant from = null;
        if (since != null && !since.isBlank()) {
            try {
                from = Instant.parse(since);
            } catch (DateTimeParseException e) {
                throw new InvalidRequestException("since", "since is not an ISO-8601 instant: " + since);
            }
        }
        return list(optimizer.evolution(caller, source, destination, from, limit));
    }

    private static OptimizerLimitsDocument document(String endpointId, EndpointLimits limits) {
        return new OptimizerLimitsDocument(
                "optimizer_limits",
                endpointId,
                limits.minConcurrency(),
                limits.maxConcurrency(),
                limits.maxParallelism());
    }

    private static OptimizerDecisionListDocument list(List<OptimizerDecision> decisions) {
        return new OptimizerDecisionListDocument(
                "optimizer_decision_list",
                decisions.stream().map(OptimizerController::document).toList());
    }

    private static OptimizerDecisionDocument document(OptimizerDecision d) {
        return new OptimizerDecisionDocument(
                "optimizer_decision",
                d.sourceEndpointId().toString(),
                d.destinationEndpointId().toString(),
                ApiTime.format(d.time()),
                d.throughputSample(),
                d.throughputEma(),
                d.successRate(),
                d.filesSucceeded(),
                d.filesFailed(),
                d.previousConcurrency(),
                d.concurrency(),
                d.parallelism(),
                d.minConcurrency(),
                d.maxConcurrency(),
                d.reason());
    }
}
