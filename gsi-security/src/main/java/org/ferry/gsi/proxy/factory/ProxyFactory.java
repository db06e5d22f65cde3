package org.ferry.gsi.proxy.factory;

import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.cert.X509Certificate;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.proxy.ProxyRequest;

/**
 * Creates RFC 3820 proxy certificates, as {@code grid-proxy-init} does, and signs proxies for a
 * public key received in a delegation request.
 */
public interface ProxyFactory {

    /**
     * Makes a new key pair and a proxy certificate for it, signed by {@code issuer}.
     *
     * @param issuer  the EEC or proxy credential that signs
     * @param request lifetime, policy, path length, key size
     * @return the new credential: proxy, then the issuer's chain
     * @throws GeneralSecurityException if key generation or signing fails
     */
    GsiCredential createProxy(GsiCredential issuer, ProxyRequest request) throws GeneralSecurityException;

    /**
     * Signs a proxy certificate for somebody else's key (the initiator side of delegation).
     *
     * @param issuer    the credential that signs
     * @param publicKey the delegatee's key, from its PKCS#10 request
     * @param request   lifetime, policy, path length ({@code keyBits} is ignored)
     * @return the new proxy certificate alone
     * @throws GeneralSecurityException if signing fails
     */
    X509Certificate signProxy(GsiCredential issuer, PublicKey publicKey, ProxyRequest request)
            throws GeneralSecurityException;

    /**
     * Makes a proxy and writes it where grid-proxy-init would, in the same PEM layout (proxy
     * certificate, its private key, then the issuer chain) with mode 0600.
     *
     * @param issuer  the signing credential
     * @param request the proxy to make
     * @param file    destination, e.g. {@code /tmp/x509up_u1000}
     * @return the credential written
     * @throws GeneralSecurityException if creating the proxy fails
     * @throws IOException              if writing fails
     */
    GsiCredential createProxyFile(GsiCredential issuer, ProxyRequest request, Path file)
            throws GeneralSecurityException, IOException;
}
