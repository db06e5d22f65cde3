package org.ferry.api.web;

import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.util.List;
import org.ferry.api.activation.ActivationRequirement;
import org.ferry.api.activation.ActivationResult;
import org.ferry.api.activation.ActivationService;
import org.ferry.api.credential.EndpointAccessService;
import org.ferry.api.document.ActivationRequirementDocument;
import org.ferry.api.document.ActivationRequirementsDocument;
import org.ferry.api.document.ActivationResultDocument;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.identity.Caller;
import org.ferry.api.service.EndpointService;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Endpoint activation (docs/rest-api.md "Activation"; the Globus Transfer API v0.10 activation
 * resources): {@code GET /endpoint/{id}/activation_requirements}, {@code POST .../activate},
 * {@code POST .../autoactivate?if_expires_in=N}, {@code POST .../deactivate}. Each acts on the
 * caller's own activation of an endpoint the caller may use (their own, or a public one).
 */
@RestController
@RequestMapping(path = "/v0.10", produces = "application/json")
public class ActivationController {

    private final EndpointService endpoints;
    private final ActivationService activation;
    private final EndpointAccessService status;

    /**
     * @param endpoints endpoint lookup
     * @param activation activation
     * @param status the clock the documents count {@code expires_in} from
     */
    public ActivationController(EndpointService endpoints, ActivationService activation, EndpointAccessService status) {
        this.endpoints = endpoints;
        this.activation = activation;
        this.status = status;
    }

    /** {@code GET /endpoint/{id}/activation_requirements}: what activating takes; none when not needed. */
    @GetMapping("/endpoint/{endpoint}/activation_requirements")
    public ActivationRequirementsDocument requirements(Caller caller, @PathVariable("endpoint") String endpoint) {
        ActivationResult result =
                activation.requirements(caller.name(), endpoints.resolve(caller, endpoint, "endpoint_id"));
        Instant now = status.now();
        List<ActivationRequirementDocument> data = documents(result.requirements());
        return new ActivationRequirementsDocument(
                "activation_requirements",
                result.status().activated(),
                result.status().expiresInSeconds(now),
                ApiTime.format(result.status().activated() ? result.status().expireTime() : null),
                result.status().needsActivation(),
                null,
                result.status().subject(),
                data.size(),
                data);
    }

    /**
     * {@code POST /endpoint/{id}/activate} with the filled-in requirements document: an
     * {@code activation_result}; 400 {@code ClientError.ActivationFailed} with the reason when
     * refused.
     */
    @PostMapping("/endpoint/{endpoint}/activate")
    public ActivationResultDocument activate(
            Caller caller,
            @PathVariable("endpoint") String endpoint,
            @RequestBody ActivationRequirementsDocument body,
            HttpServletRequest request) {
        Endpoint target = endpoints.resolve(caller, endpoint, "endpoint_id");
        return result(activation.activate(caller.name(), target, body), target, request);
    }

    /** {@code POST /endpoint/{id}/autoactivate?if_expires_in=N}: activation from what the service holds. */
    @PostMapping("/endpoint/{endpoint}/autoactivate")
    public ActivationResultDocument autoactivate(
            Caller caller,
            @PathVariable("endpoint") String endpoint,
            @RequestParam(name = "if_expires_in", defaultValue = "0") long ifExpiresIn,
            HttpServletRequest request) {
        Endpoint target = endpoints.resolve(caller, endpoint, "endpoint_id");
        return result(activation.autoactivate(caller.name(), target, ifExpiresIn), target, request);
    }

    /** {@code POST /endpoint/{id}/deactivate}: the caller's credential is deleted. */
    @PostMapping("/endpoint/{endpoint}/deactivate")
    public ActivationResultDocument deactivate(
            Caller caller, @PathVariable("endpoint") String endpoint, HttpServletRequest request) {
        Endpoint target = endpoints.resolve(caller, endpoint, "endpoint_id");
        return result(activation.deactivate(caller.name(), target), target, request);
    }

    private ActivationResultDocument result(ActivationResult result, Endpoint endpoint, HttpServletRequest request) {
        Instant now = status.now();
        List<ActivationRequirementDocument> data = documents(result.requirements());
        return new ActivationResultDocument(
                "activation_result",
                result.code(),
                result.message(),
                endpoint.getCanonicalName(),
                endpoint.getId().toString(),
                result.status().activated(),
                result.status().expiresInSeconds(now),
                ApiTime.format(result.status().activated() ? result.status().expireTime() : null),
                result.status().subject(),
                data,
                data.size(),
                RequestIds.resource(request),
                RequestIds.of(request));
    }

    private static List<ActivationRequirementDocument> documents(List<ActivationRequirement> requirements) {
        return requirements.stream()
                .map(r -> new ActivationRequirementDocument(
                        "activation_requirement",
                        r.type(),
                        r.name(),
                        r.isPrivate() ? null : r.value(),
                        r.required(),
                        r.isPrivate(),
                        r.uiName(),
                        r.description()))
                .toList();
    }
}
