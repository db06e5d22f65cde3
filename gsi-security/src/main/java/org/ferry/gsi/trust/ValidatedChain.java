package org.ferry.gsi.trust;

import java.security.cert.X509Certificate;
import java.util.List;
import org.ferry.gsi.proxy.ProxyCertificates;

/**
 * A chain that passed validation.
 *
 * @param chain    the chain as presented, leaf first
 * @param identity the GSI identity (EEC subject, oneline form; reference 4.4)
 * @param limited  true when any proxy in it is a Globus limited proxy
 */
public record ValidatedChain(List<X509Certificate> chain, String identity, boolean limited) {

    /**
     * Makes the list unmodifiable.
     *
     * @param chain    the chain, leaf first
     * @param identity the GSI identity
     * @param limited  whether the chain is limited
     */
    public ValidatedChain {
        chain = List.copyOf(chain);
    }

    /** @return the leaf certificate */
    public X509Certificate leaf() {
        return chain.get(0);
    }

    /** @return the end-entity certificate */
    public X509Certificate endEntity() {
        return ProxyCertificates.endEntity(chain);
    }

    /**
     * For operations that need full rights (GSS {@code GSS_C_GLOBUS_DONT_ACCEPT_LIMITED_PROXY_FLAG},
     * reference 5.2), rejects limited proxies.
     *
     * @return this chain
     * @throws CertificateValidationException if the chain is limited
     */
    public ValidatedChain requireFullProxy() throws CertificateValidationException {
        if (limited) {
            throw new CertificateValidationException("limited proxy not accepted for " + identity
                    + ": this operation needs a full proxy (make one with grid-proxy-init without -limited)");
        }
        return this;
    }
}
