package org.ferry.api.security;

import org.ferry.api.document.IdentityDocument;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /v0.10/me}: who the request authenticated as, and how ({@code ferry whoami}). */
@RestController
public class WhoAmIController {

    /** @return the identity document */
    @GetMapping(path = "/v0.10/me", produces = "application/json")
    public IdentityDocument me() {
        FerryAuthentication authentication = CallerArgumentResolver.current();
        return new IdentityDocument(
                "identity",
                authentication.caller().accountId().toString(),
                authentication.caller().name(),
                authentication.caller().admin() ? "ADMIN" : "USER",
                authentication.method().name(),
                authentication.subject());
    }
}
