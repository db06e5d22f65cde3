package org.ferry.gsi.proxy;

/**
 * What a certificate says about itself as a proxy.
 *
 * @param format     the proxy generation
 * @param policy     the policy kind
 * @param pathLength the pCPathLenConstraint (RFC 3820 section 3.8), or -1 when absent (unlimited)
 */
public record ProxyInfo(ProxyFormat format, ProxyPolicyKind policy, int pathLength) {

    /** @return true when this is a Globus limited proxy */
    public boolean limited() {
        return policy == ProxyPolicyKind.LIMITED;
    }
}
