package org.ferry.api.security;

import org.ferry.api.identity.AccountService;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.core.Authentication;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.server.resource.InvalidBearerTokenException;
import org.springframework.security.oauth2.server.resource.authentication.BearerTokenAuthenticationToken;

/**
 * Authenticates a bearer JWT of the configured OpenID Connect provider (signature, issuer,
 * expiry and optional audience checked by the decoder) and maps a claim to an enabled account.
 */
public final class OidcAuthenticationProvider implements AuthenticationProvider {

    private final JwtDecoder decoder;
    private final AccountService accounts;
    private final String claim;

    /**
     * @param decoder checks and decodes JWTs
     * @param accounts the accounts
     * @param claim the claim naming the account
     */
    public OidcAuthenticationProvider(JwtDecoder decoder, AccountService accounts, String claim) {
        this.decoder = decoder;
        this.accounts = accounts;
        this.claim = claim;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        String token = ((BearerTokenAuthenticationToken) authentication).getToken();
        if (!BearerTokens.isJwt(token)) {
            return null;
        }
        Jwt jwt;
        try {
            jwt = decoder.decode(token);
        } catch (JwtException e) {
            throw new InvalidBearerTokenException("The JWT was refused: " + e.getMessage(), e);
        }
        String name = jwt.getClaimAsString(claim);
        if (name == null || name.isBlank()) {
            throw new InvalidBearerTokenException("The JWT has no '" + claim + "' claim to name a Ferry account");
        }
        return accounts.enabled(name)
                .map(caller -> new FerryAuthentication(caller, AuthenticationMethod.OIDC, jwt.getSubject()))
                .orElseThrow(() -> new InvalidBearerTokenException(
                        "No enabled Ferry account '" + name + "' for this JWT's " + claim + " claim"));
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return BearerTokenAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
