package org.ferry.gsi.trust;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.function.Predicate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * A JSSE trust manager that validates peers with a {@link ChainValidator}, because stock PKIX
 * rejects proxy certificates (reference 4.2). Host name checks are GSI's, not HTTPS': the caller
 * supplies an identity predicate (e.g. subject must be {@code host/<fqdn>}), applied to the
 * validated chain.
 */
public final class GsiTrustManager extends X509ExtendedTrustManager {
    private final ChainValidator validator;
    private final TrustStore trustStore;
    private final Predicate<ValidatedChain> acceptPeer;
    private volatile ValidatedChain lastPeer;

    /**
     * @param validator  validates chains
     * @param trustStore provides the CA names sent in a CertificateRequest
     * @param acceptPeer extra check on the validated peer; return false to reject it
     */
    public GsiTrustManager(ChainValidator validator, TrustStore trustStore, Predicate<ValidatedChain> acceptPeer) {
        this.validator = validator;
        this.trustStore = trustStore;
        this.acceptPeer = acceptPeer;
    }

    /** @return the chain validated in the last handshake, or null before one */
    public ValidatedChain lastPeer() {
        return lastPeer;
    }

    private void check(X509Certificate[] chain) throws CertificateException {
        try {
            ValidatedChain v = validator.validate(Arrays.asList(chain));
            if (!acceptPeer.test(v)) {
                throw new CertificateException("peer " + v.identity() + " is not the expected identity");
            }
            lastPeer = v;
        } catch (CertificateValidationException e) {
            throw new CertificateException(e.getMessage(), e);
        }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        check(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        check(chain);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        check(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        check(chain);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        check(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        check(chain);
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return trustStore.caCertificates().toArray(X509Certificate[]::new);
    }
}
