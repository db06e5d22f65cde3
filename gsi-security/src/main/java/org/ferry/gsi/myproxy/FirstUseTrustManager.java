package org.ferry.gsi.myproxy;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.function.Predicate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;
import org.ferry.gsi.name.DistinguishedNames;

/**
 * Trust on first use, as {@code myproxy-logon -b} bootstraps it: a server chain is accepted when
 * each certificate is signed by the next one and the chain ends in a self-signed CA certificate
 * the server presented itself (what it will hand out as a trust root), and the leaf has the
 * expected identity. No CA directory is consulted: what this accepts must be checked against the
 * trust roots the server sends before anything from it is trusted.
 */
final class FirstUseTrustManager extends X509ExtendedTrustManager {

    private final Predicate<String> expectedIdentity;

    /** @param expectedIdentity tests the leaf's subject, oneline form */
    FirstUseTrustManager(Predicate<String> expectedIdentity) {
        this.expectedIdentity = expectedIdentity;
    }

    private void check(X509Certificate[] chain) throws CertificateException {
        if (chain == null || chain.length == 0) {
            throw new CertificateException("the MyProxy server presented no certificate");
        }
        try {
            for (int i = 0; i + 1 < chain.length; i++) {
                chain[i].checkValidity();
                chain[i].verify(chain[i + 1].getPublicKey());
            }
            X509Certificate root = chain[chain.length - 1];
            root.checkValidity();
            if (!root.getSubjectX500Principal().equals(root.getIssuerX500Principal())) {
                throw new CertificateException("cannot bootstrap trust: the MyProxy server's chain does not include"
                        + " its CA certificate (it ends at "
                        + DistinguishedNames.oneline(root.getSubjectX500Principal()) + ")");
            }
            root.verify(root.getPublicKey());
        } catch (CertificateException e) {
            throw e;
        } catch (GeneralSecurityException e) {
            throw new CertificateException("the MyProxy server's chain does not verify: " + e.getMessage(), e);
        }
        String identity = DistinguishedNames.oneline(chain[0].getSubjectX500Principal());
        if (!expectedIdentity.test(identity)) {
            throw new CertificateException("peer " + identity + " is not the expected identity");
        }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        check(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        check(chain);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        check(chain);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        throw new CertificateException("a MyProxy client does not accept clients");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        throw new CertificateException("a MyProxy client does not accept clients");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        throw new CertificateException("a MyProxy client does not accept clients");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
    }
}
