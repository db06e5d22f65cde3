package org.ferry.server.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.util.Optional;
import org.ferry.api.identity.AccountService;
import org.ferry.api.identity.Caller;
import org.ferry.api.security.AuthenticationMethod;
import org.ferry.api.security.FerryAuthentication;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.core.oidc.user.OidcUser;
import org.springframework.security.web.authentication.AuthenticationSuccessHandler;
import org.springframework.security.web.context.SecurityContextRepository;

/**
 * After the provider signed a user in: maps the ID token's claim ({@code ferry.oidc.username-claim})
 * to an enabled Ferry account and keeps that account, not the provider's token, in the session,
 * so pages and services see the same {@link Caller} as after a password sign-in. Without such an
 * account the session ends and the sign-in page says why.
 */
final class OidcSignInSuccessHandler implements AuthenticationSuccessHandler {

    private final AccountService accounts;
    private final SecurityContextRepository contexts;
    private final String claim;

    OidcSignInSuccessHandler(AccountService accounts, SecurityContextRepository contexts, String claim) {
        this.accounts = accounts;
        this.contexts = contexts;
        this.claim = claim;
    }

    @Override
    public void onAuthenticationSuccess(
            HttpServletRequest request, HttpServletResponse response, Authentication authentication)
            throws IOException {
        Optional<Caller> caller = Optional.empty();
        String subject = null;
        if (authentication.getPrincipal() instanceof OidcUser user) {
            subject = user.getSubject();
            Object name = user.getClaims().get(claim);
            if (name instanceof String text && !text.isBlank()) {
                caller = accounts.enabled(text);
            }
        }
        if (caller.isEmpty()) {
            SecurityContextHolder.clearContext();
            HttpSession session = request.getSession(false);
            if (session != null) {
                session.invalidate();
            }
            response.sendRedirect(request.getContextPath() + PageSecurityConfiguration.SIGN_IN + "?error=account");
            return;
        }
        SecurityContext context = SecurityContextHolder.createEmptyContext();
        context.setAuthentication(new FerryAuthentication(caller.get(), AuthenticationMethod.OIDC, subject));
        SecurityContextHolder.setContext(context);
        contexts.saveContext(context, request, response);
        response.sendRedirect(request.getContextPath() + "/files");
    }
}
