package org.ferry.gsi.proxy;

import java.time.Duration;

/**
 * What proxy to make (the options of {@code grid-proxy-init} that Ferry supports).
 *
 * @param lifetime   requested lifetime; the proxy never outlives its issuer
 * @param policy     {@link ProxyPolicyKind#IMPERSONATION}, {@link ProxyPolicyKind#LIMITED} or
 *                   {@link ProxyPolicyKind#INDEPENDENT}
 * @param pathLength pCPathLenConstraint, or -1 for none (RFC 3820 section 3.8)
 * @param keyBits    RSA modulus size of a newly generated key, in bits
 */
public record ProxyRequest(Duration lifetime, ProxyPolicyKind policy, int pathLength, int keyBits) {

    /** grid-proxy-init's default lifetime, 12 hours. */
    public static final Duration DEFAULT_LIFETIME = Duration.ofHours(12);

    /**
     * Validates the fields.
     *
     * @param lifetime   requested lifetime
     * @param policy     policy kind, not RESTRICTED
     * @param pathLength path length constraint or -1
     * @param keyBits    RSA key size, at least 2048
     */
    public ProxyRequest {
        if (lifetime.isNegative() || lifetime.isZero()) {
            throw new IllegalArgumentException("proxy lifetime must be positive: " + lifetime);
        }
        if (policy == ProxyPolicyKind.RESTRICTED) {
            throw new IllegalArgumentException("restricted proxies need a policy; Ferry does not create them");
        }
        if (keyBits < 2048) {
            throw new IllegalArgumentException("proxy keys must have at least 2048 bits: " + keyBits);
        }
    }

    /** @return a 12 h, 2048-bit RFC 3820 impersonation proxy request, as grid-proxy-init makes by default */
    public static ProxyRequest impersonation() {
        return new ProxyRequest(DEFAULT_LIFETIME, ProxyPolicyKind.IMPERSONATION, -1, 2048);
    }

    /** @return a 12 h limited proxy request ({@code grid-proxy-init -limited}) */
    public static ProxyRequest limited() {
        return new ProxyRequest(DEFAULT_LIFETIME, ProxyPolicyKind.LIMITED, -1, 2048);
    }

    /**
     * @param newLifetime the lifetime
     * @return a copy with another lifetime
     */
    public ProxyRequest withLifetime(Duration newLifetime) {
        return new ProxyRequest(newLifetime, policy, pathLength, keyBits);
    }

    /**
     * @param newPathLength the pCPathLenConstraint, -1 for none
     * @return a copy with another path length constraint
     */
    public ProxyRequest withPathLength(int newPathLength) {
        return new ProxyRequest(lifetime, policy, newPathLength, keyBits);
    }
}
