package org.ferry.server.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.util.Optional;
import org.ferry.api.identity.AccountService;
import org.ferry.api.identity.Caller;
import org.ferry.api.security.FerryAuthentication;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.context.SecurityContextRepository;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Checks on every page request that the signed-in account still exists and is enabled, and
 * follows a change of role: a session outlives neither {@code ferry-server user disable} nor a
 * demotion. A disabled account's session is ended and the request goes on unauthenticated (so a
 * page sends it to sign-in).
 */
final class AccountStillEnabledFilter extends OncePerRequestFilter {

    private final AccountService accounts;
    private final SecurityContextRepository contexts;

    AccountStillEnabledFilter(AccountService accounts, SecurityContextRepository contexts) {
        this.accounts = accounts;
        this.contexts = contexts;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return path.startsWith("/css/") || path.startsWith("/js/") || path.startsWith("/webjars/");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        if (authentication instanceof FerryAuthentication signedIn) {
            Optional<Caller> now = accounts.enabled(signedIn.caller().name());
            if (now.isEmpty()) {
                SecurityContext empty = SecurityContextHolder.createEmptyContext();
                SecurityContextHolder.setContext(empty);
                HttpSession session = request.getSession(false);
                if (session != null) {
                    session.invalidate();
                }
            } else if (!now.get().equals(signedIn.caller())) {
                SecurityContext changed = SecurityContextHolder.createEmptyContext();
                changed.setAuthentication(new FerryAuthentication(now.get(), signedIn.method(), signedIn.subject()));
                SecurityContextHolder.setContext(changed);
                contexts.saveContext(changed, request, response);
            }
        }
        chain.doFilter(request, response);
    }
}
