package org.ferry.server.pages;

import java.util.List;
import org.ferry.api.domain.Endpoint;
import org.ferry.api.error.FerryException;
import org.ferry.api.identity.Caller;
import org.ferry.api.service.EndpointService;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** Endpoints: list and search, create, edit, delete, activate. */
@Controller
public class EndpointPages {

    private final EndpointService endpoints;

    /** @param endpoints the endpoint registry */
    public EndpointPages(EndpointService endpoints) {
        this.endpoints = endpoints;
    }

    /** Yours and the public ones, optionally searched. */
    @GetMapping("/endpoints")
    public String list(Caller caller, @RequestParam(name = "filter", required = false) String filter, Model model) {
        List<Endpoint> found = endpoints.search(caller, filter, null, null);
        model.addAttribute("endpoints", found);
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
            Endpoint created = endpoints.create(caller, form.toRequest(true));
            redirect.addFlashAttribute("notice", "Endpoint " + created.getCanonicalName() + " was created.");
            return "redirect:/endpoints";
        } catch (FerryException e) {
            return formAgain(model, form, null, e);
        }
    }

    /** The form of a stored endpoint. */
    @GetMapping("/endpoints/{id}/edit")
    public String edit(Caller caller, @PathVariable("id") String id, Model model) {
        Endpoint endpoint = endpoints.resolve(caller, id, "endpoint_id");
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
        Endpoint endpoint = endpoints.resolve(caller, id, "endpoint_id");
        try {
            Endpoint changed = endpoints.update(caller, id, form.toRequest(false));
            redirect.addFlashAttribute("notice", "Endpoint " + changed.getCanonicalName() + " was saved.");
            return "redirect:/endpoints";
        } catch (FerryException e) {
            return formAgain(model, form, endpoint, e);
        }
    }

    /** Deletes the endpoint. */
    @PostMapping("/endpoints/{id}/delete")
    public String delete(Caller caller, @PathVariable("id") String id, RedirectAttributes redirect) {
        Endpoint endpoint = endpoints.resolve(caller, id, "endpoint_id");
        endpoints.delete(caller, id);
        redirect.addFlashAttribute("notice", "Endpoint " + endpoint.getCanonicalName() + " was deleted.");
        return "redirect:/endpoints";
    }

    /**
     * Activation. Endpoints that log in with a stored user name and password (every endpoint the
     * service has now) need none, as Globus' {@code autoactivate} answers for them.
     */
    @PostMapping("/endpoints/{id}/activate")
    public String activate(Caller caller, @PathVariable("id") String id, RedirectAttributes redirect) {
        Endpoint endpoint = endpoints.resolve(caller, id, "endpoint_id");
        redirect.addFlashAttribute(
                "notice",
                "Endpoint " + endpoint.getCanonicalName() + " logs in with its stored login and needs no activation.");
        return "redirect:/endpoints";
    }

    private static String formAgain(Model model, EndpointForm form, Endpoint endpoint, FerryException e) {
        model.addAttribute("form", form);
        model.addAttribute("endpoint", endpoint);
        model.addAttribute("error", e.getMessage());
        model.addAttribute("errorField", EndpointForm.formField(e.field()));
        return "endpoint-form";
    }
}
