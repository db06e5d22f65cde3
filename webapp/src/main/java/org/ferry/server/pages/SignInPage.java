package org.ferry.server.pages;

import org.ferry.api.security.FerryAuthentication;
import org.ferry.server.security.OidcLoginConfiguration;
import org.ferry.server.security.OidcLoginProperties;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The sign-in page: an account's user name and password (posted to Spring Security's form login
 * at the same address), and the institution's OpenID Connect provider when configured.
 */
@Controller
public class SignInPage {

    private final OidcLoginProperties oidc;

    /** @param oidc whether and how to offer the institution's sign-in */
    public SignInPage(OidcLoginProperties oidc) {
        this.oidc = oidc;
    }

    /** The form, with what went wrong the last time. */
    @GetMapping("/signin")
    public String signIn(
            Authentication authentication,
            @RequestParam(name = "error", required = false) String error,
            @RequestParam(name = "signedout", required = false) String signedOut,
            Model model) {
        if (authentication instanceof FerryAuthentication) {
            return "redirect:/files";
        }
        if (error != null) {
            model.addAttribute(
                    "error",
                    switch (error) {
                        case "account" ->
                            "Your institution signed you in, but no enabled Ferry account matches"
                                    + " that identity. Ask a Ferry administrator for an account.";
                        case "provider" ->
                            "Signing in with " + oidc.displayName()
                                    + " did not complete. Try again; if it keeps failing, tell a Ferry administrator.";
                        default -> "Wrong user name or password, or the account is disabled.";
                    });
        }
        if (signedOut != null) {
            model.addAttribute("notice", "You have signed out.");
        }
        model.addAttribute("oidcEnabled", oidc.enabled());
        model.addAttribute("oidcName", oidc.displayName());
        model.addAttribute("oidcPath", "/oauth2/authorization/" + OidcLoginConfiguration.REGISTRATION_ID);
        return "signin";
    }
}
