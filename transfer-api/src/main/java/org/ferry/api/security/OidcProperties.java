package org.ferry.api.security;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Bearer JWTs from an institution's OpenID Connect provider ({@code ferry.oidc.*}).
 *
 * @param issuerUri the issuer; unset: JWTs are refused. Its discovery document and keys are
 *     fetched at the first JWT, not at start
 * @param audience when set, a JWT must name it in {@code aud}
 * @param usernameClaim the claim whose value is the Ferry account name (default {@code sub});
 *     the account must exist and be enabled
 */
@ConfigurationProperties("ferry.oidc")
public record OidcProperties(String issuerUri, String audience, String usernameClaim) {

    /** @return the claim naming the account */
    public String claim() {
        return usernameClaim == null || usernameClaim.isBlank() ? "sub" : usernameClaim;
    }

    /** @return whether JWTs are accepted */
    public boolean enabled() {
        return issuerUri != null && !issuerUri.isBlank();
    }
}
