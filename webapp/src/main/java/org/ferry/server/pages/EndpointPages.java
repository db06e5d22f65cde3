package org.ferry.server.pages;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.ferry.api.activation.ActivationResult;
import org.ferry.api.activation.ActivationService;
import org.ferry.api.activation.SshKeyActivation;
import org.ferry.api.credential.ActivationStatus;
import org.ferry.api.credential.EndpointAccessService;
import org.ferry.api.document.ActivationRequirementDocument;
import org.ferry.api.document.ActivationRequirementsDocument;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.error.ActivationFailedException;
import org.ferry.api.error.FerryException;
import org.ferry.api.error.InvalidRequestException;
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
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * Endpoints: list and search, create, edit, delete; the caller's own activation of a {@code
 * gsiftp://} endpoint (from a MyProxy server, as {@code ferry endpoint activate --myproxy} does) or
 * of an {@code sshftp://} endpoint made without a key (with an SSH key of theirs, as {@code ferry
 * endpoint activate --ssh-key} does), and deactivation.
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
        Map<UUID, ActivationStatus> statuses = new LinkedHashMap<>();
        Map<UUID, AgentPresence> agents = new LinkedHashMap<>();
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
            // this form asks for MyProxy fields; the page's SSH key form posts to activate-ssh-key
            redirect.addFlashAttribute(
                    "notice",
                    "Endpoint " + endpoint.getCanonicalName()
                            + " is activated with an SSH key of yours: use its SSH key form, or "
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
            ActivationResult result = activate(caller, endpoint, filled);
            redirect.addFlashAttribute("notice", "Endpoint " + endpoint.getCanonicalName() + ": " + result.message());
        } catch (FerryException e) {
            redirect.addFlashAttribute(
                    "error", "Endpoint " + endpoint.getCanonicalName() + " was not activated: " + e.getMessage());
        }
        return "redirect:/endpoints";
    }

    /**
     * Activates the caller's use of an {@code sshftp://} endpoint made without a stored key with an
     * SSH key of theirs ({@code ssh_key} requirements, the path {@code POST
     * /endpoint/{id}/activate} takes): the service decrypts an encrypted key once with the
     * passphrase, logs in once through the host's sshd trusting only the pinned host key, and keeps
     * the key sealed for the lifetime. A refusal (a key that does not parse, a wrong passphrase, a
     * key the server refuses, a host key that is not the pinned one) keeps nothing and is shown on
     * the page; neither the key nor the passphrase is shown back or logged.
     *
     * @param username the SSH login on the endpoint's host; blank: the endpoint's own, if any
     * @param privateKey the private key pasted as OpenSSH or PEM text
     * @param privateKeyFile the same chosen as a file; when not empty it is used instead
     * @param passphrase the passphrase of an encrypted key; blank: none
     * @param lifetimeHours how long the activation lasts, in hours; blank: the default (12)
     */
    @PostMapping("/endpoints/{id}/activate-ssh-key")
    public String activateWithSshKey(
            Caller caller,
            @PathVariable("id") String id,
            @RequestParam(name = "username", required = false) String username,
            @RequestParam(name = "privateKey", required = false) String privateKey,
            @RequestParam(name = "privateKeyFile", required = false) MultipartFile privateKeyFile,
            @RequestParam(name = "passphrase", required = false) String passphrase,
            @RequestParam(name = "lifetime", required = false) String lifetimeHours,
            RedirectAttributes redirect)
            throws IOException {
        Endpoint endpoint = endpoints.resolve(caller, id, "endpoint_id");
        if (!endpoint.isSsh() || !endpoint.needsActivation()) {
            redirect.addFlashAttribute(
                    "error",
                    "Endpoint " + endpoint.getCanonicalName()
                            + " is not activated with an SSH key of yours (only an sshftp:// endpoint made"
                            + " without a stored key is).");
            return "redirect:/endpoints";
        }
        String key = privateKey;
        if (privateKeyFile != null && !privateKeyFile.isEmpty()) {
            // a private key is text; bytes that are not UTF-8 fail the key's parse, by name
            key = new String(privateKeyFile.getBytes(), StandardCharsets.UTF_8);
        }
        List<ActivationRequirementDocument> filled = new ArrayList<>();
        if (username != null && !username.isBlank()) {
            filled.add(sshKey("username", username.strip(), false));
        }
        filled.add(sshKey("private_key", key, true));
        if (passphrase != null && !passphrase.isEmpty()) {
            filled.add(sshKey("passphrase", passphrase, true));
        }
        if (lifetimeHours != null && !lifetimeHours.isBlank()) {
            filled.add(sshKey("lifetime_in_hours", lifetimeHours.strip(), false));
        }
        try {
            ActivationResult result = activate(caller, endpoint, filled);
            redirect.addFlashAttribute("notice", "Endpoint " + endpoint.getCanonicalName() + ": " + result.message());
        } catch (FerryException e) {
            redirect.addFlashAttribute(
                    "error",
                    "Endpoint " + endpoint.getCanonicalName() + " was not activated: " + sshRefusal(e, filled) + " "
                            + e.getMessage());
            // the form opens again with the login kept; the key and the passphrase are not shown back
            redirect.addFlashAttribute("sshRefused", endpoint.getId());
            redirect.addFlashAttribute("sshLogin", username == null ? "" : username.strip());
        }
        return "redirect:/endpoints";
    }

    /**
     * @param e why the service refused an SSH key activation: an {@link ActivationFailedException}
     *     with its reason, or an {@link InvalidRequestException} naming a {@code DATA[i].value}
     * @param filled the requirements the form sent, in the order it sent them
     * @return the refusal's name, for the page: which of the form's fields to look at again
     */
    static String sshRefusal(FerryException e, List<ActivationRequirementDocument> filled) {
        if (e instanceof ActivationFailedException refused) {
            return switch (refused.reason()) {
                case HOST_KEY_CHANGED -> "Host key changed.";
                case KEY_REFUSED -> "Key refused.";
                case WRONG_PASSPHRASE -> "Wrong passphrase.";
                case PASSPHRASE_NEEDED -> "Passphrase needed.";
                case REFUSED -> "Refused.";
            };
        }
        String name = requirementAt(e.field(), filled);
        return switch (name) {
            // absent from the form: only the login may be left out
            case "", "username" -> "Login needed.";
            case "private_key" -> "Not a private key.";
            case "lifetime_in_hours" -> "Lifetime not valid.";
            default -> "Refused.";
        };
    }

    /** @return the name of the requirement that {@code DATA[i].value} points at; "" for none */
    private static String requirementAt(String field, List<ActivationRequirementDocument> filled) {
        if (field == null || !field.startsWith("DATA[")) {
            return "";
        }
        try {
            int index = Integer.parseInt(field.substring("DATA[".length(), field.indexOf(']')));
            return index >= 0 && index < filled.size() ? filled.get(index).name() : "";
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            return "";
        }
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

    /** Activates with the filled requirements, as {@code POST /endpoint/{id}/activate} does. */
    private ActivationResult activate(Caller caller, Endpoint endpoint, List<ActivationRequirementDocument> filled) {
        return activation.activate(
                caller.name(),
                endpoint,
                new ActivationRequirementsDocument(
                        "activation_requirements", null, null, null, null, null, null, filled.size(), filled));
    }

    private static ActivationRequirementDocument sshKey(String name, String value, boolean secret) {
        return new ActivationRequirementDocument(
                "activation_requirement",
                SshKeyActivation.SSH_KEY,
                name,
                value == null ? "" : value,
                true,
                secret,
                null,
                null);
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
