package org.ferry.server.security;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Sign-in to the web pages with the institution's OpenID Connect provider (the
 * {@code ferry.oidc.*} settings the API's JWT check also reads, plus a client registered at the
 * provider for Ferry's pages, with redirect URI {@code <ferry URL>/login/oauth2/code/oidc}).
 *
 * @param issuerUri the provider; its discovery document is read at the first sign-in, not at start
 * @param clientId Ferry's client id at the provider; unset: no OpenID Connect sign-in
 * @param clientSecret its secret
 * @param usernameClaim the ID token claim naming the Ferry account (default {@code sub}); the
 *     account must exist and be enabled
 * @param providerName the name on the sign-in button (default {@code your institution})
 */
@ConfigurationProperties("ferry.oidc")
public record OidcLoginProperties(
        String issuerUri, String clientId, String clientSecret, String usernameClaim, String providerName) {

    /** @return whether the sign-in page offers the provider */
    public boolean enabled() {
        return issuerUri != null && !issuerUri.isBlank() && clientId != null && !clientId.isBlank();
    }

    /** @return the claim naming the account */
    public String claim() {
        return usernameClaim == null || usernameClaim.isBlank() ? "sub" : usernameClaim;
    }

    /** @return the provider's name for people */
    public String displayName() {
        return providerName == null || providerName.isBlank() ? "your institution" : providerName;
    }
}
