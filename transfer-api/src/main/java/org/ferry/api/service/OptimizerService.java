package org.ferry.api.service;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.domain.EndpointLimits;
import org.ferry.api.domain.OptimizerDecision;
import org.ferry.api.error.InvalidRequestException;
import org.ferry.api.error.NotFoundException;
import org.ferry.api.identity.AccountService;
import org.ferry.api.identity.Caller;
import org.ferry.api.repository.EndpointRepository;
import org.ferry.api.store.OptimizerRows;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * What the optimizer decided per endpoint pair, and the admins' limits per endpoint
 * (docs/optimizer.md). The scheduler's optimizer writes the decisions; this reads them.
 */
@Service
public class OptimizerService {

    /** Largest concurrency limit an admin may set. */
    public static final int MAX_CONCURRENCY_LIMIT = 1000;

    /** Largest parallelism limit an admin may set (FTS3's OptimizerMaxStreams is 16). */
    public static final int MAX_PARALLELISM_LIMIT = 64;

    private final OptimizerRows rows;
    private final EndpointService endpoints;
    private final EndpointRepository endpointRows;

    /**
     * One endpoint pair's course, for the web page's chart.
     *
     * @param sourceEndpointId the pair's source
     * @param sourceEndpoint its canonical name ({@code owner#name}; the id if it was deleted)
     * @param destinationEndpointId the pair's destination
     * @param destinationEndpoint its canonical name (the id if it was deleted)
     * @param decisions the pair's decisions, oldest first; never empty (the last is the latest)
     */
    public record PairCourse(
            UUID sourceEndpointId,
            String sourceEndpoint,
            UUID destinationEndpointId,
            String destinationEndpoint,
            List<OptimizerDecision> decisions) {

        /** @return the pair's latest decision */
        public OptimizerDecision latest() {
            return decisions.get(decisions.size() - 1);
        }
    }

    /**
     * @param rows the optimizer's rows
     * @param endpoints resolves endpoints by id or name
     * @param endpointRows names the endpoints of the pairs
     */
    public OptimizerService(OptimizerRows rows, EndpointService endpoints, EndpointRepository endpointRows) {
        this.rows = rows;
        this.endpoints = endpoints;
        this.endpointRows = endpointRows;
    }

    /**
     * @param caller the user
     * @param endpoint the endpoint's id or name
     * @return its limits (null fields: the defaults apply)
     * @throws org.ferry.api.error.NotFoundException naming {@code endpoint_id} if the caller cannot see it
     */
    @Transactional(readOnly = true)
    public EndpointLimits limits(Caller caller, String endpoint) {
        return rows.limitsOf(endpoints.resolve(caller, endpoint, "endpoint_id").getId());
    }

    /**
     * @param caller the user
     * @param endpoint the endpoint's id or name
     * @return its id
     * @throws org.ferry.api.error.NotFoundException naming {@code endpoint_id} if the caller cannot see it
     */
    @Transactional(readOnly = true)
    public String idOf(Caller caller, String endpoint) {
        return endpoints.resolve(caller, endpoint, "endpoint_id").getId().toString();
    }

    /**
     * Replaces an endpoint's limits (admins only).
     *
     * @param caller an admin
     * @param endpoint the endpoint's id or name
     * @param limits the new limits; a null field takes the default
     * @return the endpoint
     * @throws org.ferry.api.error.PermissionDeniedException unless the caller is an admin
     * @throws InvalidRequestException naming {@code min_concurrency}, {@code max_concurrency} or
     *     {@code max_parallelism} for a value below 1, above the largest limit, or a minimum above
     *     the maximum
     */
    @Transactional
    public Endpoint updateLimits(Caller caller, String endpoint, EndpointLimits limits) {
        AccountService.requireAdmin(caller);
        check("min_concurrency", limits.minConcurrency(), MAX_CONCURRENCY_LIMIT);
        check("max_concurrency", limits.maxConcurrency(), MAX_CONCURRENCY_LIMIT);
        check("max_parallelism", limits.maxParallelism(), MAX_PARALLELISM_LIMIT);
        if (limits.minConcurrency() != null
                && limits.maxConcurrency() != null
                && limits.minConcurrency() > limits.maxConcurrency()) {
            throw new InvalidRequestException(
                    "min_concurrency",
                    "min_concurrency (" + limits.minConcurrency() + ") is above max_concurrency ("
                            + limits.maxConcurrency() + ")");
        }
        Endpoint found = endpoints.resolve(caller, endpoint, "endpoint_id");
        rows.saveLimits(found.getId(), limits);
        return found;
    }

    private static void check(String field, Integer value, int largest) {
        if (value != null && (value < 1 || value > largest)) {
            throw new InvalidRequestException(
                    field, field + " must be between 1 and " + largest + " (or null for the default), was " + value);
        }
    }

    /**
     * @param caller the user: an admin sees every pair (the optimizer is the site's), a user only
     *     pairs of endpoints they may see (their own and public ones), so that another user's private
     *     endpoint and its traffic stay hidden; pairs of a deleted endpoint are left out for both
     * @return the latest decision of every such pair, newest first
     */
    @Transactional(readOnly = true)
    public List<OptimizerDecision> current(Caller caller) {
        List<OptimizerDecision> all = rows.current();
        // a deleted endpoint's pairs keep their decisions until retention drops them, but no one
        // can act on them any more: shown to no one (a user's visibility check fails them anyway)
        Predicate<UUID> shown = caller.admin() ? endpointRows::existsById : id -> endpoints.visible(caller, id);
        Map<UUID, Boolean> visible = new HashMap<>();
        return all.stream()
                .filter(d -> visible.computeIfAbsent(d.sourceEndpointId(), shown::test)
                        && visible.computeIfAbsent(d.destinationEndpointId(), shown::test))
                .toList();
    }

    /**
     * One pair's decisions, with the visibility of {@link #current}: a user reads pairs of endpoints
     * they may see (their own and public ones), an admin every pair, also of another user's private
     * endpoints (named by id or {@code owner#name}).
     *
     * @param caller the user
     * @param source the pair's source endpoint (id or name)
     * @param destination the pair's destination endpoint (id or name)
     * @param since oldest decision, or null
     * @param limit most decisions (the newest)
     * @return the pair's decisions, oldest first
     * @throws org.ferry.api.error.NotFoundException naming {@code source} or {@code destination}
     *     for an endpoint that does not exist or, for a user, is another user's private one
     */
    @Transactional(readOnly = true)
    public List<OptimizerDecision> evolution(
            Caller caller, String source, String destination, Instant since, int limit) {
        Endpoint from = pairEnd(caller, source, "source");
        Endpoint to = pairEnd(caller, destination, "destination");
        return rows.evolution(from.getId(), to.getId(), since, limit);
    }

    /** @return the endpoint as {@link #current} lets the caller see it: an admin any, a user as resolve */
    private Endpoint pairEnd(Caller caller, String idOrName, String field) {
        if (!caller.admin() || idOrName == null || idOrName.isBlank()) {
            return endpoints.resolve(caller, idOrName, field);
        }
        Optional<Endpoint> found;
        try {
            found = endpointRows.findById(UUID.fromString(idOrName));
        } catch (IllegalArgumentException notAnId) {
            found = endpointRows.findByCanonicalName(
                    idOrName.contains("#") ? idOrName : caller.name() + "#" + idOrName);
        }
        return found.orElseThrow(() -> new NotFoundException(field, "Endpoint '" + idOrName + "' not found"));
    }

    /**
     * The course of every pair {@link #current} shows the caller (the same filter: an admin sees
     * every pair, a user only pairs of endpoints they may see), newest decision first.
     *
     * @param caller the user
     * @param limit most decisions per pair (the newest)
     * @return each pair with its endpoints' names and decisions
     */
    @Transactional(readOnly = true)
    public List<PairCourse> courses(Caller caller, int limit) {
        Map<UUID, String> names = new HashMap<>();
        List<PairCourse> courses = new ArrayList<>();
        for (OptimizerDecision latest : current(caller)) {
            List<OptimizerDecision> decisions =
                    rows.evolution(latest.sourceEndpointId(), latest.destinationEndpointId(), null, limit);
            courses.add(new PairCourse(
                    latest.sourceEndpointId(),
                    names.computeIfAbsent(latest.sourceEndpointId(), this::nameOf),
                    latest.destinationEndpointId(),
                    names.computeIfAbsent(latest.destinationEndpointId(), this::nameOf),
                    decisions.isEmpty() ? List.of(latest) : decisions));
        }
        return courses;
    }

    private String nameOf(UUID endpointId) {
        return endpointRows.findById(endpointId).map(e -> e.getCanonicalName()).orElse(endpointId.toString());
    }
}
