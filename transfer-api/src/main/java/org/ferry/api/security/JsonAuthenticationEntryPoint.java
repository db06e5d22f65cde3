package org.ferry.api.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.ferry.api.document.ErrorDocument;
import org.ferry.api.web.RequestIds;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.security.web.AuthenticationEntryPoint;
import tools.jackson.databind.ObjectMapper;

/**
 * Answers an unauthenticated API request: 401 with the error document (code
 * {@code AuthenticationFailed}) whose message says what was wrong and how to authenticate, and
 * {@code WWW-Authenticate} challenges for Bearer (RFC 6750 section 3, with
 * {@code error="invalid_token"} when a token was refused) and Basic.
 */
public final class JsonAuthenticationEntryPoint implements AuthenticationEntryPoint {

    /** The hint every 401 carries. */
    public static final String HINT = "Authenticate with 'Authorization: Bearer <access token>' (the ferry CLI: "
            + "'ferry login'; on the server's machine the admin token is in FERRY_HOME/token), "
            + "'Authorization: Basic' with a user name and password, a client certificate on the HTTPS "
            + "listener, or a JWT of the configured OpenID Connect provider";

    private final ObjectMapper json;

    /** @param json writes the body */
    public JsonAuthenticationEntryPoint(ObjectMapper json) {
        this.json = json;
    }

    @Override
    public void commence(HttpServletRequest request, HttpServletResponse response, AuthenticationException e)
            throws IOException {
        boolean tokenRefused = e instanceof InvalidBearerTokenException;
        boolean sentSomething = request.getHeader("Authorization") != null
                || request.getAttribute(ClientCertificateFilter.CERTIFICATE_ATTRIBUTE) != null;
        String message = sentSomething ? e.getMessage() + ". " + HINT : "No credentials were sent. " + HINT;
        response.setStatus(HttpStatus.UNAUTHORIZED.value());
        response.addHeader(
                "WWW-Authenticate",
                tokenRefused ? "Bearer realm=\"ferry\", error=\"invalid_token\"" : "Bearer realm=\"ferry\"");
        response.addHeader("WWW-Authenticate", "Basic realm=\"ferry\"");
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.getOutputStream()
                .write(json.writeValueAsBytes(ErrorDocument.of(
                        "AuthenticationFailed", message, RequestIds.of(request), RequestIds.resource(request), null)));
    }
}
