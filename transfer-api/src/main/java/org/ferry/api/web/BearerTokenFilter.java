package org.ferry.api.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.ferry.api.auth.AuthenticatedUser;
import org.ferry.api.auth.TokenHasher;
import org.ferry.api.domain.UserAccount;
import org.ferry.api.repository.UserAccountRepository;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.ObjectMapper;

/**
 * Requires {@code Authorization: Bearer <token>} on every {@code /v0.10/**} request; answers 401
 * with the API error body otherwise. Other paths (static pages, later the web UI) pass untouched.
 */
@Component
public class BearerTokenFilter extends OncePerRequestFilter {

    /** The API path prefix this filter guards. */
    public static final String API_PREFIX = "/v0.10/";

    private static final String BEARER = "Bearer ";

    private final UserAccountRepository users;
    private final ObjectMapper json;

    /**
     * @param users where token hashes are looked up
     * @param json writes the 401 body
     */
    public BearerTokenFilter(UserAccountRepository users, ObjectMapper json) {
        this.users = users;
        this.json = json;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return !(path.startsWith(API_PREFIX) || path.equals("/v0.10"));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Optional<UserAccount> user = authenticate(request.getHeader("Authorization"));
        if (user.isEmpty()) {
            ApiError body = ApiError.of(
                    HttpStatus.UNAUTHORIZED,
                    "AuthenticationFailed",
                    "Missing or invalid bearer token (Authorization: Bearer <token>)",
                    null,
                    request.getRequestURI());
            response.setStatus(HttpStatus.UNAUTHORIZED.value());
            response.setHeader("WWW-Authenticate", "Bearer");
            response.setContentType(MediaType.APPLICATION_JSON_VALUE);
            response.getOutputStream().write(json.writeValueAsBytes(body.body()));
            return;
        }
        request.setAttribute(
                AuthenticatedUser.REQUEST_ATTRIBUTE,
                new AuthenticatedUser(user.get().getName()));
        chain.doFilter(request, response);
    }

    private Optional<UserAccount> authenticate(String header) {
        if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return Optional.empty();
        }
        String token = header.substring(BEARER.length()).trim();
        if (token.isEmpty()) {
            return Optional.empty();
        }
        return users.findByTokenHash(TokenHasher.hash(token));
    }
}
