package org.ferry.gsi.delegation;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.proxy.factory.BcProxyFactory;

/**
 * The receiving side of a delegation: a fresh key pair and a DER PKCS#10 request signed with
 * SHA-256 (canl's generator uses SHA-1, which current peers refuse). Send {@link #csrDer()},
 * receive the proxy certificate, then {@link #complete(byte[], List)}.
 *
 * <p>Holds a private key: keep it only as long as the exchange lasts.
 */
public final class DelegationRequest {
    private final KeyPair keyPair;
    private final byte[] csrDer;

    private DelegationRequest(KeyPair keyPair, byte[] csrDer) {
        this.keyPair = keyPair;
        this.csrDer = csrDer;
    }

    /**
     * @param keyBits RSA modulus size; Globus uses the peer certificate's size, MyProxy 2048
     * @param subject request subject (ignored by GSI signers), e.g. {@code CN=proxy}
     * @return a new request
     * @throws GeneralSecurityException if key generation or signing fails
     */
    public static DelegationRequest create(int keyBits, String subject) throws GeneralSecurityException {
        // The JDK's RSA generator (BigInteger.probablePrime: Miller-Rabin plus a Lucas test), not
        // Bouncy Castle's: every GSI login with delegation waits for this key, and the JDK's took
        // about half the time for 2048 bits here (110-130 ms vs 220-370 ms on a loaded 2-core
        // machine); building a BouncyCastleProvider per call cost more again.
        KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
        gen.initialize(keyBits, new SecureRandom());
        KeyPair pair = gen.generateKeyPair();
        try {
            byte[] der = new JcaPKCS10CertificationRequestBuilder(new X500Name(subject), pair.getPublic())
                    .build(new JcaContentSignerBuilder(BcProxyFactory.signatureAlgorithm(pair.getPrivate()))
                            .build(pair.getPrivate()))
                    .getEncoded();
            return new DelegationRequest(pair, der);
        } catch (OperatorCreationException | IOException e) {
            throw new GeneralSecurityException("cannot build certificate request: " + e.getMessage(), e);
        }
    }

    /**
     * @return a 2048-bit request with subject {@code CN=proxy}
     * @throws GeneralSecurityException if key generation or signing fails
     */
    public static DelegationRequest create() throws GeneralSecurityException {
        return create(2048, "CN=proxy");
    }

    /** @return the DER PKCS#10 request to send to the delegator */
    public byte[] csrDer() {
        return csrDer.clone();
    }

    /**
     * Assembles the delegated credential: the new proxy, then the delegator's chain.
     *
     * @param proxyDer    the DER certificate the delegator returned
     * @param issuerChain the delegator's chain, leaf first (its TLS certificate chain; reference 4.2
     *                    step 5), or the certificates that followed the proxy (MyProxy)
     * @return the credential; validate it before use
     * @throws GeneralSecurityException if the certificate is not for this request's key or was not
     *                                  issued by the first certificate of {@code issuerChain}
     */
    public GsiCredential complete(byte[] proxyDer, List<X509Certificate> issuerChain) throws GeneralSecurityException {
        X509Certificate proxy = parse(proxyDer);
        if (!proxy.getPublicKey().equals(keyPair.getPublic())) {
            throw new GeneralSecurityException("delegated certificate is not for the key we requested");
        }
        if (issuerChain.isEmpty()
                || !proxy.getIssuerX500Principal().equals(issuerChain.get(0).getSubjectX500Principal())) {
            throw new GeneralSecurityException("delegated certificate was not issued by the delegating peer");
        }
        proxy.verify(issuerChain.get(0).getPublicKey());
        List<X509Certificate> chain = new ArrayList<>();
        chain.add(proxy);
        chain.addAll(issuerChain);
        return new GsiCredential(keyPair.getPrivate(), chain);
    }

    /**
     * Assembles a credential from a certificate an online CA issued for this request's key: a
     * MyProxy server acting as a CA ({@code certificate_issuer_cert}, myproxy-server.config(5))
     * returns that certificate alone, signed by its CA rather than by the server. The credential
     * is the certificate only; whether its issuer is trusted is for the caller's validation against
     * its trust roots, before use.
     *
     * @param certificateDer the DER certificate the CA returned
     * @return the credential
     * @throws GeneralSecurityException if the certificate does not parse or is not for this
     *     request's key
     */
    public GsiCredential completeIssued(byte[] certificateDer) throws GeneralSecurityException {
        X509Certificate certificate = parse(certificateDer);
        if (!certificate.getPublicKey().equals(keyPair.getPublic())) {
            throw new GeneralSecurityException("issued certificate is not for the key we requested");
        }
        return new GsiCredential(keyPair.getPrivate(), List.of(certificate));
    }

    /**
     * @param der one DER certificate
     * @return the certificate
     * @throws CertificateException if it does not parse
     */
    static X509Certificate parse(byte[] der) throws CertificateException {
        return (X509Certificate)
                CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(der));
    }
}
