package org.ferry.server.pages;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ferry.api.activation.ActivationResult;
import org.ferry.api.activation.ActivationService;
import org.ferry.api.credential.ActivationStatus;
import org.ferry.api.credential.EndpointAccessService;
import org.ferry.api.document.ActivationRequirementDocument;
import org.ferry.api.document.ActivationRequirementsDocument;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.error.FerryException;
import org.ferry.api.error.PermissionDeniedException;
import org.ferry.api.identity.Caller;
import org.ferry.api.service.EndpointService;
import org.ferry.api.service.PersonalEndpoints;
import org.ferry.mover.connect.relay.AgentPresence;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * Endpoints: list and search, create, edit, delete; for {@code gsiftp://} endpoints the caller's
 * own activation (from a MyProxy server, as {@code ferry endpoint activate --myproxy} does) and
 * deactivation.
 */
@Controller
public class EndpointPages {

    private final EndpointService endpoints;
    private final ActivationService activation;
    private final EndpointAccessService accesses;
    private final PersonalEndpoints personal;

    /**
     * @param endpoints the endpoint registry
     * @param activation activates and deactivates the caller's credential for an endpoint
     * @param accesses the caller's activation status of each endpoint
     * @param personal personal endpoints (Ferry Connect): their agents, setup keys, revocation
     */
    public EndpointPages(
            EndpointService endpoints,
            ActivationService activation,
            EndpointAccessService accesses,
            PersonalEndpoints personal) {
        this.personal = personal;
        this.endpoints = endpoints;
        this.activation = activation;
        this.accesses = accesses;
    }

    /** Yours and the public ones, optionally searched. */
    @GetMapping("/endpoints")
    public String list(Caller caller, @RequestParam(name = "filter", required = false) String filter, Model model) {
        List<Endpoint> found = endpoints.search(caller, filter, null, null);
        Map<java.util.UUID, ActivationStatus> statuses = new LinkedHashMap<>();
        Map<java.util.UUID, AgentPresence> agents = new LinkedHashMap<>();
        for (Endpoint endpoint : found) {
            statuses.put(endpoint.getId(), accesses.status(caller.name(), endpoint));
            personal.presence(endpoint).ifPresent(a -> agents.put(endpoint.getId(), a));
        }
        model.addAttribute("agents", agents);
        model.addAttribute("endpoints", found);
        model.addAttribute("activations", statuses);
        model.addAttribute("filter", filter == null ? "" : filter);
        return "endpoints";
    }

    /** The empty form. */
    @GetMapping("/endpoints/new")
    public String create(Caller caller, Model model) {
        model.addAttribute("form", EndpointForm.empty());
        model.addAttribute("endpoint", null);
        return "endpoint-form";
    }

    /** Registers the endpoint, or shows the form again with the error beside its field. */
    @PostMapping("/endpoints")
    public String create(
            Caller caller, @ModelAttribute("form") EndpointForm form, Model model, RedirectAttributes redirect) {
        try {
            Endpoint created = endpoints.create(caller, form.toDefinition(true));
            redirect.addFlashAttribute("notice", "Endpoint " + created.getCanonicalName() + " was created.");
            return "redirect:/endpoints";
        } catch (FerryException e) {
            return formAgain(model, form, null, e);
        }
    }

    /** The form of a stored endpoint (its owner's only: 403 for another's public endpoint). */
    @GetMapping("/endpoints/{id}/edit")
    public String edit(Caller caller, @PathVariable("id") String id, Model model) {
        Endpoint endpoint = owned(caller, id);
        model.addAttribute("form", EndpointForm.of(endpoint));
        model.addAttribute("endpoint", endpoint);
        return "endpoint-form";
    }

    /** Changes the endpoint, or shows the form again with the error. */
    @PostMapping("/endpoints/{id}")
    public String update(
            Caller caller,
            @PathVariable("id") String id,
            @ModelAttribute("form") EndpointForm form,
            Model model,
            RedirectAttributes redirect) {
        Endpoint endpoint = owned(caller, id);
        try {
            Endpoint changed = endpoints.update(caller, id, form.toDefinition(false));
            redirect.addFlashAttribute("notice", "Endpoint " + changed.getCanonicalName() + " was saved.");
            return "redirect:/endpoints";
        } catch (FerryException e) {
            return formAgain(model, form, endpoint, e);
        }
    }

    /**
     * Creates a personal endpoint (Ferry Connect) and shows its setup key on the next page, once.
     *
     * @param name its name
     */
    @PostMapping("/endpoints/personal")
    public String createPersonal(
            Caller caller, @RequestParam(name = "name", defaultValue = "") String name, RedirectAttributes redirect) {
        try {
            PersonalEndpoints.Created created =
                    personal.create(caller, null, name.isBlank() ? null : name.strip(), null);
            redirect.addFlashAttribute(
                    "notice", "Personal endpoint " + created.endpoint().getCanonicalName() + " was created.");
            redirect.addFlashAttribute("setupKey", created.setupKey().setupKey());
        } catch (FerryException e) {
            redirect.addFlashAttribute("personalError", e.getMessage());
        }
        return "redirect:/endpoints";
    }

    /** Revokes a personal endpoint's agent (its owner only): cut off now, refused from now on. */
    @PostMapping("/endpoints/{id}/revoke")
    public String revoke(Caller caller, @PathVariable("id") String id, RedirectAttributes redirect) {
        Endpoint endpoint = personal.revoke(caller, id);
        redirect.addFlashAttribute(
                "notice", "The agent of " + endpoint.getCanonicalName() + " is revoked and cut off.");
        return "redirect:/endpoints";
    }

    /** Deletes the endpoint (its owner only). */
    @PostMapping("/endpoints/{id}/delete")
    public String delete(Caller caller, @PathVariable("id") String id, RedirectAttributes redirect) {
        Endpoint endpoint = owned(caller, id);
        personal.delete(caller, id);
        redirect.addFlashAttribute("notice", "Endpoint " + endpoint.getCanonicalName() + " was deleted.");
        return "redirect:/endpoints";
    }

    /**
     * Activates the caller's use of a {@code gsiftp://} endpoint with a credential retrieved from a
     * MyProxy server (Globus activation, {@code myproxy} requirements); a clear-text endpoint needs
     * none. The passphrase is used for this one request and never stored.
     *
     * @param username the MyProxy user name
     * @param passphrase its passphrase
     * @param hostname the MyProxy server ({@code host[:port]}); blank: the endpoint's own
     * @param lifetimeHours the credential's lifetime asked for; blank: the server's default
     */
    @PostMapping("/endpoints/{id}/activate")
    public String activate(
            Caller caller,
            @PathVariable("id") String id,
            @RequestParam(name = "username", required = false) String username,
            @RequestParam(name = "passphrase", required = false) String passphrase,
            @RequestParam(name = "hostname", required = false) String hostname,
            @RequestParam(name = "lifetime", required = false) String lifetimeHours,
            RedirectAttributes redirect) {
        Endpoint endpoint = endpoints.resolve(caller, id, "endpoint_id");
        if (!endpoint.needsActivation()) {
            redirect.addFlashAttribute(
                    "notice",
                    "Endpoint " + endpoint.getCanonicalName()
                            + " logs in with its stored login and needs no activation.");
            return "redirect:/endpoints";
        }
        if (endpoint.isSsh()) {
            // this form asks for MyProxy fields; an SSH key comes from the CLI or the API
            redirect.addFlashAttribute(
                    "notice",
                    "Endpoint " + endpoint.getCanonicalName() + " is activated with an SSH key of yours: "
                            + EndpointAccessService.activateHint(endpoint) + ".");
            return "redirect:/endpoints";
        }
        List<ActivationRequirementDocument> filled = new ArrayList<>();
        filled.add(myProxy("username", username, false));
        filled.add(myProxy("passphrase", passphrase, true));
        if (hostname != null && !hostname.isBlank()) {
            filled.add(myProxy("hostname", hostname.trim(), false));
        }
        if (lifetimeHours != null && !lifetimeHours.isBlank()) {
            filled.add(myProxy("lifetime_in_hours", lifetimeHours.trim(), false));
        }
        try {
            ActivationResult result = activation.activate(
                    caller.name(),
                    endpoint,
                    new ActivationRequirementsDocument(
                            "activation_requirements", null, null, null, null, null, null, filled.size(), filled));
            redirect.addFlashAttribute("notice", "Endpoint " + endpoint.getCanonicalName() + ": " + result.message());
        } catch (FerryException e) {
            redirect.addFlashAttribute(
                    "error", "Endpoint " + endpoint.getCanonicalName() + " was not activated: " + e.getMessage());
        }
        return "redirect:/endpoints";
    }

    /** Ends the caller's activation of a {@code gsiftp://} endpoint (their tasks on it wait INACTIVE). */
    @PostMapping("/endpoints/{id}/deactivate")
    public String deactivate(Caller caller, @PathVariable("id") String id, RedirectAttributes redirect) {
        Endpoint endpoint = endpoints.resolve(caller, id, "endpoint_id");
        try {
            ActivationResult result = activation.deactivate(caller.name(), endpoint);
            redirect.addFlashAttribute("notice", "Endpoint " + endpoint.getCanonicalName() + ": " + result.message());
        } catch (FerryException e) {
            redirect.addFlashAttribute("error", e.getMessage());
        }
        return "redirect:/endpoints";
    }

    /**
     * An endpoint the caller may change: a page error (403, as the API answers) for another
     * user's public endpoint, instead of a form whose save can only fail.
     *
     * @throws org.ferry.api.error.NotFoundException if the caller cannot see it
     * @throws PermissionDeniedException if it is another user's
     */
    private Endpoint owned(Caller caller, String id) {
        Endpoint endpoint = endpoints.resolve(caller, id, "endpoint_id");
        if (!caller.owns(endpoint.getOwnerName())) {
            throw new PermissionDeniedException(
                    "endpoint_id", "Only " + endpoint.getOwnerName() + " may change " + endpoint.getCanonicalName());
        }
        return endpoint;
    }

    private static ActivationRequirementDocument myProxy(String name, String value, boolean secret) {
        return new ActivationRequirementDocument(
                "activation_requirement", "myproxy", name, value == null ? "" : value, true, secret, null, null);
    }

    private static String formAgain(Model model, EndpointForm form, Endpoint endpoint, FerryException e) {
        model.addAttribute("form", form);
        model.addAttribute("endpoint", endpoint);
        model.addAttribute("error", e.getMessage());
        model.addAttribute("errorField", EndpointForm.formField(e.field()));
        return "endpoint-form";
    }
}
