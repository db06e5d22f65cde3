package org.ferry.server.security;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import org.ferry.api.document.ErrorDocument;
import org.ferry.api.web.RequestIds;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.ObjectMapper;

/**
 * Keeps tokens, passwords and session cookies off clear-text HTTP beyond the machine: a request
 * that came over plain HTTP from an address other than loopback gets 403 and is not looked at
 * further (no authentication runs), except the health probes, which carry no credentials. A TLS
 * proxy in front of Ferry makes its requests secure by {@code X-Forwarded-Proto: https} with
 * {@code server.forward-headers-strategy=native} (embedded server) or Tomcat's
 * {@code RemoteIpValve} (WAR); {@code ferry.http.allow-clear-text=true} turns the guard off.
 */
public final class ClearTextGuard extends OncePerRequestFilter {

    /** The message of the refusal. */
    public static final String MESSAGE = "Ferry takes credentials only over HTTPS from beyond this machine: use the"
            + " HTTPS listener (ferry.https.port, or the servlet container's TLS connector) or a TLS proxy"
            + " that sends X-Forwarded-Proto: https";

    private final ObjectMapper json;

    /** @param json writes the API's error document */
    public ClearTextGuard(ObjectMapper json) {
        this.json = json;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.isSecure() || isLoopback(request.getRemoteAddr()) || isHealthProbe(request)) {
            chain.doFilter(request, response);
            return;
        }
        response.setStatus(HttpStatus.FORBIDDEN.value());
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (path.startsWith("/v0.10")) {
            response.setContentType(MediaType.APPLICATION_JSON_VALUE);
            response.getOutputStream()
                    .write(json.writeValueAsBytes(ErrorDocument.of(
                            "ClientError.Forbidden",
                            MESSAGE,
                            RequestIds.of(request),
                            RequestIds.resource(request),
                            null)));
        } else {
            response.setContentType("text/plain;charset=UTF-8");
            response.getOutputStream().write((MESSAGE + "\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    private static boolean isHealthProbe(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return "GET".equals(request.getMethod())
                && (path.equals("/actuator/health") || path.startsWith("/actuator/health/"));
    }

    /**
     * @param address a textual IP address
     * @return whether it is a loopback address (127.0.0.0/8, ::1)
     */
    static boolean isLoopback(String address) {
        // only literals: getByName looks nothing up for them
        if (address == null || !address.matches("[0-9A-Fa-f:.%]+")) {
            return false;
        }
        try {
            return InetAddress.getByName(address).isLoopbackAddress();
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }
}
