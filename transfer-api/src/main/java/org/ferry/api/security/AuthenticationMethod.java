package org.ferry.api.security;

/** How a request proved who it comes from. */
public enum AuthenticationMethod {
    /** A personal access token ({@code Authorization: Bearer}). */
    TOKEN,
    /** An account's password ({@code Authorization: Basic}). */
    PASSWORD,
    /** An X.509 client certificate or proxy chain over mutual TLS. */
    CERTIFICATE,
    /** A bearer JWT of the configured OpenID Connect provider. */
    OIDC
}
