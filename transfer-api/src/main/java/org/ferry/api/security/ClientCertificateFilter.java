package org.ferry.api.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.cert.X509Certificate;
import java.util.List;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Authenticates a request that came with a client certificate chain (the servlet attribute
 * {@code jakarta.servlet.request.X509Certificate}) and no {@code Authorization} header (a token
 * or password sent over the same TLS connection takes precedence). A chain that fails gets the
 * 401 of the entry point, naming why.
 */
public final class ClientCertificateFilter extends OncePerRequestFilter {

    /** The servlet request attribute under which the container puts the client's chain. */
    public static final String CERTIFICATE_ATTRIBUTE = "jakarta.servlet.request.X509Certificate";

    private final ClientCertificateAuthenticator authenticator;
    private final AuthenticationEntryPoint entryPoint;

    /**
     * @param authenticator checks chains
     * @param entryPoint answers failures
     */
    public ClientCertificateFilter(ClientCertificateAuthenticator authenticator, AuthenticationEntryPoint entryPoint) {
        this.authenticator = authenticator;
        this.entryPoint = entryPoint;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Object certificates = request.getAttribute(CERTIFICATE_ATTRIBUTE);
        if (certificates instanceof X509Certificate[] array
                && array.length > 0
                && request.getHeader("Authorization") == null) {
            try {
                SecurityContextHolder.getContext().setAuthentication(authenticator.authenticate(List.of(array)));
            } catch (AuthenticationException e) {
                SecurityContextHolder.clearContext();
                entryPoint.commence(request, response, e);
                return;
            } catch (UncheckedIOException e) {
                SecurityContextHolder.clearContext();
                entryPoint.commence(request, response, new BadCredentialsException(e.getMessage(), e));
                return;
            }
        }
        chain.doFilter(request, response);
    }
}
