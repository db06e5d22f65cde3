package org.ferry.api.web;

import java.util.Map;
import org.ferry.api.activation.ActivationService;
import org.ferry.api.auth.AuthenticatedUser;
import org.ferry.api.credential.EndpointAccessService;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.service.EndpointService;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Endpoint activation (rest-api.md "Activation"; the Globus Transfer API v0.10 activation
 * resources): {@code GET /endpoint/{id}/activation_requirements}, {@code POST .../activate},
 * {@code POST .../autoactivate?if_expires_in=N}, {@code POST .../deactivate}. Each acts on the
 * caller's own activation of the endpoint.
 */
@RestController
@RequestMapping("/v0.10")
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

    private Endpoint endpoint(AuthenticatedUser caller, String endpoint) {
        return endpoints.resolve(caller.name(), endpoint, "endpoint_id");
    }

    /** {@code GET /endpoint/{id}/activation_requirements}: what activating takes; none when not needed. */
    @GetMapping("/endpoint/{endpoint}/activation_requirements")
    public Map<String, Object> requirements(
            @RequestAttribute(AuthenticatedUser.REQUEST_ATTRIBUTE) AuthenticatedUser caller,
            @PathVariable("endpoint") String endpoint) {
        return Documents.activationRequirements(
                activation.requirements(caller.name(), endpoint(caller, endpoint)), status.now());
    }

    /**
     * {@code POST /endpoint/{id}/activate} with the filled-in requirements document: an
     * {@code activation_result}; 400 {@code ClientError.ActivationFailed} with the reason when
     * refused.
     */
    @PostMapping("/endpoint/{endpoint}/activate")
    public Map<String, Object> activate(
            @RequestAttribute(AuthenticatedUser.REQUEST_ATTRIBUTE) AuthenticatedUser caller,
            @PathVariable("endpoint") String endpoint,
            @RequestBody Map<String, Object> body) {
        Endpoint target = endpoint(caller, endpoint);
        return Documents.activationResult(
                activation.activate(caller.name(), target, body),
                target,
                "/endpoint/" + target.getId() + "/activate",
                status.now());
    }

    /** {@code POST /endpoint/{id}/autoactivate?if_expires_in=N}: activation from what the service holds. */
    @PostMapping("/endpoint/{endpoint}/autoactivate")
    public Map<String, Object> autoactivate(
            @RequestAttribute(AuthenticatedUser.REQUEST_ATTRIBUTE) AuthenticatedUser caller,
            @PathVariable("endpoint") String endpoint,
            @RequestParam(name = "if_expires_in", defaultValue = "0") long ifExpiresIn) {
        Endpoint target = endpoint(caller, endpoint);
        return Documents.activationResult(
                activation.autoactivate(caller.name(), target, ifExpiresIn),
                target,
                "/endpoint/" + target.getId() + "/autoactivate",
                status.now());
    }

    /** {@code POST /endpoint/{id}/deactivate}: the caller's credential is deleted. */
    @PostMapping("/endpoint/{endpoint}/deactivate")
    public Map<String, Object> deactivate(
            @RequestAttribute(AuthenticatedUser.REQUEST_ATTRIBUTE) AuthenticatedUser caller,
            @PathVariable("endpoint") String endpoint) {
        Endpoint target = endpoint(caller, endpoint);
        return Documents.activationResult(
                activation.deactivate(caller.name(), target),
                target,
                "/endpoint/" + target.getId() + "/deactivate",
                status.now());
    }
}
