package org.ferry.api.security;

import org.ferry.api.identity.AccessTokenService;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.security.oauth2.server.resource.authentication.BearerTokenAuthenticationToken;

/**
 * Authenticates a bearer personal access token by its hash. A JWT-shaped token is left to the
 * OIDC provider ({@code null}), or refused when no OIDC issuer is configured.
 */
public final class AccessTokenAuthenticationProvider implements AuthenticationProvider {

    private final AccessTokenService tokens;
    private final boolean jwtAccepted;

    /**
     * @param tokens the token store
     * @param jwtAccepted whether another provider handles JWTs
     */
    public AccessTokenAuthenticationProvider(AccessTokenService tokens, boolean jwtAccepted) {
        this.tokens = tokens;
        this.jwtAccepted = jwtAccepted;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        String token = ((BearerTokenAuthenticationToken) authentication).getToken();
        if (BearerTokens.isJwt(token)) {
            if (jwtAccepted) {
                return null;
            }
            throw new InvalidBearerTokenException(
                    "This server accepts no JWTs: no OpenID Connect issuer is configured (ferry.oidc.issuer-uri)");
        }
        return tokens.authenticate(token)
                .map(caller -> new FerryAuthentication(caller, AuthenticationMethod.TOKEN, null))
                .orElseThrow(() -> new InvalidBearerTokenException(
                        "The access token is unknown, expired or revoked, or its account is disabled"));
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return BearerTokenAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
