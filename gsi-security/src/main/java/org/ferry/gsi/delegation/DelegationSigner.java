package org.ferry.gsi.delegation;

import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentVerifierProviderBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.PKCSException;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequest;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.proxy.ProxyRequest;
import org.ferry.gsi.proxy.factory.ProxyFactory;

/**
 * The delegating side: checks a DER PKCS#10 request and signs a proxy for its key
 * ({@code globus_gsi_proxy_sign_req}, reference 4.2 step 4). Only the new certificate is returned,
 * DER, no chain, as GSI sends it.
 */
public final class DelegationSigner {
    private final ProxyFactory proxyFactory;

    /** @param proxyFactory makes the proxy certificate */
    public DelegationSigner(ProxyFactory proxyFactory) {
        this.proxyFactory = proxyFactory;
    }

    /**
     * @param delegator the credential whose rights are delegated
     * @param csrDer    the acceptor's DER PKCS#10 request
     * @param request   lifetime and policy (limited or impersonation) of the new proxy
     * @return the DER proxy certificate
     * @throws GeneralSecurityException if the request is malformed or its signature is bad
     */
    public byte[] sign(GsiCredential delegator, byte[] csrDer, ProxyRequest request) throws GeneralSecurityException {
        PublicKey key;
        try {
            PKCS10CertificationRequest csr = new PKCS10CertificationRequest(csrDer);
            key = new JcaPKCS10CertificationRequest(csr).getPublicKey();
            // the JDK's providers verify SHA-2 with RSA signatures; no Bouncy Castle provider per login
            if (!csr.isSignatureValid(new JcaContentVerifierProviderBuilder().build(key))) {
                throw new GeneralSecurityException("delegation request signature is not valid");
            }
        } catch (java.io.IOException | IllegalArgumentException | OperatorCreationException | PKCSException e) {
            throw new GeneralSecurityException("malformed delegation request: " + e.getMessage(), e);
        }
        X509Certificate proxy = proxyFactory.signProxy(delegator, key, request);
        return proxy.getEncoded();
    }
}
