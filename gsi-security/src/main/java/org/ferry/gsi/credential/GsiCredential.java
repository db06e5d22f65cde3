package org.ferry.gsi.credential;

import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.ferry.gsi.proxy.ProxyCertificates;

/**
 * A private key and its certificate chain, leaf first: a proxy credential (proxy, its issuers up
 * to the EEC, optionally CAs) or a host/user credential (EEC alone).
 *
 * <p>{@link #toString()} never prints the key.
 */
public final class GsiCredential {
    private final PrivateKey privateKey;
    private final List<X509Certificate> chain;

    /**
     * @param privateKey the key of {@code chain.get(0)}
     * @param chain      leaf first, not empty
     * @throws IllegalArgumentException if the chain is empty
     */
    public GsiCredential(PrivateKey privateKey, List<X509Certificate> chain) {
        this.privateKey = Objects.requireNonNull(privateKey, "privateKey");
        if (chain.isEmpty()) {
            throw new IllegalArgumentException("a credential needs at least one certificate");
        }
        this.chain = List.copyOf(chain);
    }

    /** @return the private key of the leaf certificate */
    public PrivateKey privateKey() {
        return privateKey;
    }

    /** @return the chain, leaf first, unmodifiable */
    public List<X509Certificate> chain() {
        return chain;
    }

    /** @return the leaf certificate (the proxy, for a proxy credential) */
    public X509Certificate certificate() {
        return chain.get(0);
    }

    /** @return the GSI identity: EEC subject in OpenSSL oneline form (reference 4.4) */
    public String identity() {
        return ProxyCertificates.identity(chain);
    }

    /** @return the earliest notAfter in the chain: when this credential stops working */
    public Instant notAfter() {
        return chain.stream()
                .map(c -> c.getNotAfter().toInstant())
                .min(Instant::compareTo)
                .orElseThrow();
    }

    /** @return true when the leaf is a proxy certificate */
    public boolean isProxy() {
        return ProxyCertificates.isProxy(certificate());
    }

    @Override
    public String toString() {
        return "GsiCredential[subject=" + certificate().getSubjectX500Principal() + ", chainLength=" + chain.size()
                + ", notAfter=" + notAfter() + "]";
    }
}
