package org.ferry.gsi.proxy;

/**
 * What a proxy lets its holder do, from its policy language (RFC 3820 section 3.8) or, for a
 * legacy proxy, from its CN.
 */
public enum ProxyPolicyKind {
    /** id-ppl-inheritAll 1.3.6.1.5.5.7.21.1: full impersonation of the issuer. */
    IMPERSONATION,
    /** Globus limited proxy 1.3.6.1.4.1.3536.1.1.1.9 (or legacy {@code CN=limited proxy}). */
    LIMITED,
    /** id-ppl-independent 1.3.6.1.5.5.7.21.2: no rights inherited. */
    INDEPENDENT,
    /** Any other policy language: rights restricted by a policy Ferry does not interpret. */
    RESTRICTED
}
