package org.ferry.server.pages;

import org.ferry.api.domain.SshKey;
import org.ferry.api.error.FerryException;
import org.ferry.api.identity.Caller;
import org.ferry.api.identity.SshKeyService;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * SSH keys ({@code /ssh-keys}, issue 37): the caller's registered SSH public keys (the keys that
 * run the {@code ferry} commands over ferry-server's SSH port) with fingerprint, type, comment and
 * when added; a form that adds one from a pasted {@code .pub} line; removal. Every change goes
 * through {@link SshKeyService}, as {@code POST /ssh_key}, {@code DELETE /ssh_key/{id}} and
 * {@code ferry ssh-key} do, so the pages accept and refuse exactly what the API does.
 */
@Controller
public class SshKeyPages {

    private final SshKeyService keys;

    /** @param keys the accounts' SSH keys */
    public SshKeyPages(SshKeyService keys) {
        this.keys = keys;
    }

    /** The caller's keys, oldest first, and the form for another. */
    @GetMapping("/ssh-keys")
    public String list(Caller caller, Model model) {
        model.addAttribute("keys", keys.list(caller));
        return "ssh-keys";
    }

    /**
     * Registers the pasted key; a refusal (not a key, a private key, one registered already, an
     * empty field, a comment too long) shows the page again with the error beside its field and
     * nothing stored. The pasted text is never shown back: it may be a private key.
     *
     * @param publicKey one OpenSSH public key line
     * @param comment what the key is; blank: the key's own comment
     */
    @PostMapping("/ssh-keys")
    public String add(
            Caller caller,
            @RequestParam(name = "publicKey", defaultValue = "") String publicKey,
            @RequestParam(name = "comment", defaultValue = "") String comment,
            Model model,
            RedirectAttributes redirect) {
        try {
            SshKey added = keys.add(caller, publicKey, FormValues.blankToNull(comment));
            redirect.addFlashAttribute("notice", "SSH key " + added.getFingerprint() + " was added.");
            return "redirect:/ssh-keys";
        } catch (FerryException e) {
            boolean onComment = "description".equals(e.field());
            model.addAttribute("keys", keys.list(caller));
            // the field by its label on this page, then the service's words (which use the API's name)
            model.addAttribute("error", (onComment ? "Comment: " : "Public key: ") + e.getMessage());
            model.addAttribute("errorField", onComment ? "comment" : "publicKey");
            model.addAttribute("comment", comment);
            return "ssh-keys";
        }
    }

    /**
     * Removes one of the caller's keys; another user's key or an unknown id is the not-found page
     * (404), as {@code DELETE /ssh_key/{id}} answers.
     */
    @PostMapping("/ssh-keys/{id}/remove")
    public String remove(Caller caller, @PathVariable("id") String id, RedirectAttributes redirect) {
        String fingerprint = keys.list(caller).stream()
                .filter(k -> k.getId().toString().equals(id))
                .map(SshKey::getFingerprint)
                .findFirst()
                .orElse(id);
        keys.remove(caller, id);
        redirect.addFlashAttribute("notice", "SSH key " + fingerprint + " was removed.");
        return "redirect:/ssh-keys";
    }
}
