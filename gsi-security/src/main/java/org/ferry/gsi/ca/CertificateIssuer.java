package org.ferry.gsi.ca;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.CRLReason;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v2CRLBuilder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CRLConverter;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.ferry.gsi.proxy.factory.BcProxyFactory;

/**
 * Signs end-entity certificates and CRLs with a CA key (RFC 5280 profile, SHA-256 signatures).
 * Knows nothing about files or setup keys; {@link OnlineCa} adds those.
 */
public final class CertificateIssuer {
    private final X509Certificate caCertificate;
    private final PrivateKey caKey;
    private final Provider provider;
    private final SecureRandom random = new SecureRandom();

    /**
     * @param caCertificate the CA certificate
     * @param caKey         its private key
     * @param provider      JCA provider used for signing (passed explicitly, never registered)
     */
    public CertificateIssuer(X509Certificate caCertificate, PrivateKey caKey, Provider provider) {
        this.caCertificate = caCertificate;
        this.caKey = caKey;
        this.provider = provider;
    }

    /**
     * Makes a self-signed CA certificate: basicConstraints cA critical, keyCertSign and cRLSign.
     *
     * @param subject  CA subject
     * @param keys     CA key pair
     * @param lifetime validity from now
     * @param provider JCA provider
     * @return an issuer for the new CA
     * @throws GeneralSecurityException if signing fails
     */
    public static CertificateIssuer selfSigned(X500Name subject, KeyPair keys, Duration lifetime, Provider provider)
            throws GeneralSecurityException {
        Instant now = Instant.now();
        X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(
                subject,
                BigInteger.ONE,
                Date.from(now.minus(Duration.ofMinutes(5))),
                Date.from(now.plus(lifetime)),
                subject,
                keys.getPublic());
        try {
            JcaX509ExtensionUtils utils = new JcaX509ExtensionUtils();
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            b.addExtension(Extension.subjectKeyIdentifier, false, utils.createSubjectKeyIdentifier(keys.getPublic()));
        } catch (CertIOException e) {
            throw new GeneralSecurityException(e);
        }
        X509Certificate cert = sign(b, keys.getPrivate(), provider);
        return new CertificateIssuer(cert, keys.getPrivate(), provider);
    }

    /** @return the CA certificate */
    public X509Certificate caCertificate() {
        return caCertificate;
    }

    /**
     * Issues an end-entity certificate.
     *
     * @param subject   subject DN
     * @param publicKey the subject's key
     * @param notBefore start of validity
     * @param notAfter  end of validity
     * @param dnsNames  dNSName subjectAltNames for a host/service certificate (serverAuth and
     *                  clientAuth usage); empty for a user certificate (clientAuth only)
     * @return the certificate
     * @throws GeneralSecurityException if signing fails
     */
    public X509Certificate issue(
            X500Name subject, PublicKey publicKey, Instant notBefore, Instant notAfter, List<String> dnsNames)
            throws GeneralSecurityException {
        BigInteger serial = new BigInteger(63, random).add(BigInteger.TWO);
        X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(
                caCertificate, serial, Date.from(notBefore), Date.from(notAfter), subject, publicKey);
        try {
            JcaX509ExtensionUtils utils = new JcaX509ExtensionUtils();
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            // digitalSignature is what lets an EEC sign proxies (RFC 3820 section 3.1).
            b.addExtension(
                    Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
            b.addExtension(Extension.subjectKeyIdentifier, false, utils.createSubjectKeyIdentifier(publicKey));
            b.addExtension(Extension.authorityKeyIdentifier, false, utils.createAuthorityKeyIdentifier(caCertificate));
            if (dnsNames.isEmpty()) {
                b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth));
            } else {
                b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(new KeyPurposeId[] {
                    KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth
                }));
                GeneralName[] names = dnsNames.stream()
                        .map(n -> new GeneralName(GeneralName.dNSName, n))
                        .toArray(GeneralName[]::new);
                b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names));
            }
        } catch (CertIOException e) {
            throw new GeneralSecurityException(e);
        }
        return sign(b, caKey, provider);
    }

    /**
     * Makes a CRL (RFC 5280 section 5) listing the given certificates as revoked.
     *
     * @param revoked    certificates to list
     * @param nextUpdate when relying parties should expect a newer CRL
     * @return the signed CRL
     * @throws GeneralSecurityException if signing fails
     */
    public X509CRL crl(List<X509Certificate> revoked, Instant nextUpdate) throws GeneralSecurityException {
        Instant now = Instant.now();
        X509v2CRLBuilder b = new X509v2CRLBuilder(
                X500Name.getInstance(caCertificate.getSubjectX500Principal().getEncoded()), Date.from(now));
        b.setNextUpdate(Date.from(nextUpdate));
        for (X509Certificate c : revoked) {
            b.addCRLEntry(c.getSerialNumber(), Date.from(now), CRLReason.keyCompromise);
        }
        try {
            b.addExtension(
                    Extension.authorityKeyIdentifier,
                    false,
                    new JcaX509ExtensionUtils().createAuthorityKeyIdentifier(caCertificate));
            ContentSigner signer = new JcaContentSignerBuilder(BcProxyFactory.signatureAlgorithm(caKey))
                    .setProvider(provider)
                    .build(caKey);
            return new JcaX509CRLConverter().setProvider(provider).getCRL(b.build(signer));
        } catch (CertIOException | OperatorCreationException e) {
            throw new GeneralSecurityException(e);
        }
    }

    private static X509Certificate sign(X509v3CertificateBuilder b, PrivateKey key, Provider provider)
            throws GeneralSecurityException {
        try {
            ContentSigner signer = new JcaContentSignerBuilder(BcProxyFactory.signatureAlgorithm(key))
                    .setProvider(provider)
                    .build(key);
            return new JcaX509CertificateConverter().setProvider(provider).getCertificate(b.build(signer));
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException(e);
        }
    }
}
