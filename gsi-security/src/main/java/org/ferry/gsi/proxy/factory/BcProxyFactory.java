package org.ferry.gsi.proxy.factory;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.ASN1EncodableVector;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.ASN1OctetString;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.gsi.proxy.ProxyCertificates;
import org.ferry.gsi.proxy.ProxyFormat;
import org.ferry.gsi.proxy.ProxyOids;
import org.ferry.gsi.proxy.ProxyPolicyKind;
import org.ferry.gsi.proxy.ProxyRequest;

/**
 * {@link ProxyFactory} on Bouncy Castle, making RFC 3820 proxies the way Globus'
 * {@code globus_gsi_proxy_sign_key} does (reference 5.1), except that the signature is always
 * SHA-256 (RHEL 9-era peers refuse SHA-1; Globus would copy the issuer's algorithm).
 *
 * <ul>
 *   <li>subject = issuer subject + {@code CN=<n>}, serial = n, where n is derived from the SHA-1
 *       of the new key's SubjectPublicKeyInfo as Globus does (a name, not a signature);</li>
 *   <li>validity: now - 5 minutes (clock skew) to min(issuer notAfter, now + lifetime);</li>
 *   <li>keyUsage copied from the issuer minus nonRepudiation and keyCertSign, critical;
 *       extendedKeyUsage copied;</li>
 *   <li>critical ProxyCertInfo with the requested policy language and path length.</li>
 * </ul>
 *
 * <p>The Bouncy Castle provider is passed explicitly; this class never registers it globally.
 */
public final class BcProxyFactory implements ProxyFactory {
    /** Globus' default allowance for clock skew between hosts. */
    static final Duration CLOCK_SKEW = Duration.ofMinutes(5);

    private final Provider provider;
    private final Clock clock;
    private final SecureRandom random;

    /**
     * Creates a factory with the system clock and a Bouncy Castle provider instance shared by all
     * factories made this way (built once: building one registers thousands of algorithm entries,
     * which cost tens of milliseconds on every GSI login that delegates; it is never modified).
     */
    public BcProxyFactory() {
        this(SharedProvider.INSTANCE, Clock.systemUTC(), new SecureRandom());
    }

    /** Holds the shared provider, built on first use (the holder idiom: lazy and thread-safe). */
    private static final class SharedProvider {
        static final Provider INSTANCE = new BouncyCastleProvider();
    }

    /**
     * @param provider JCA provider for signing and key generation
     * @param clock    source of "now" (tests pass a fixed clock to make expired proxies)
     * @param random   randomness for key generation
     */
    public BcProxyFactory(Provider provider, Clock clock, SecureRandom random) {
        this.provider = provider;
        this.clock = clock;
        this.random = random;
    }

    @Override
    public GsiCredential createProxy(GsiCredential issuer, ProxyRequest request) throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA", provider);
        generator.initialize(request.keyBits(), random);
        KeyPair pair = generator.generateKeyPair();
        X509Certificate proxy = signProxy(issuer, pair.getPublic(), request);
        List<X509Certificate> chain = new ArrayList<>();
        chain.add(proxy);
        chain.addAll(issuer.chain());
        return new GsiCredential(pair.getPrivate(), chain);
    }

    @Override
    public GsiCredential createProxyFile(GsiCredential issuer, ProxyRequest request, Path file)
            throws GeneralSecurityException, IOException {
        GsiCredential proxy = createProxy(issuer, request);
        PemFiles.writeCredential(proxy, file);
        return proxy;
    }

    @Override
    public X509Certificate signProxy(GsiCredential issuer, PublicKey publicKey, ProxyRequest request)
            throws GeneralSecurityException {
        X509Certificate issuerCert = issuer.certificate();
        ProxyCertificates.info(issuerCert).ifPresent(info -> {
            // RFC 3820 section 3.1 and Globus' "no mixing of formats": an RFC proxy under a
            // legacy or draft proxy would be rejected by every validator.
            if (info.format() != ProxyFormat.RFC3820) {
                throw new IllegalArgumentException("cannot sign an RFC 3820 proxy with a " + info.format()
                        + " proxy; make the issuing proxy with grid-proxy-init -rfc (the default)");
            }
            if (info.limited() && request.policy() == ProxyPolicyKind.IMPERSONATION) {
                throw new IllegalArgumentException(
                        "Can't sign a non-limited, non-independent proxy with a limited proxy");
            }
        });
        BigInteger serial = globusSerial(publicKey);
        X500Name issuerName =
                X500Name.getInstance(issuerCert.getSubjectX500Principal().getEncoded());
        X500Name subject = appendCn(issuerName, serial.toString());
        Instant now = clock.instant();
        Instant notAfter = now.plus(request.lifetime());
        if (issuerCert.getNotAfter().toInstant().isBefore(notAfter)) {
            notAfter = issuerCert.getNotAfter().toInstant();
        }
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                issuerName, serial, Date.from(now.minus(CLOCK_SKEW)), Date.from(notAfter), subject, publicKey);
        try {
            builder.addExtension(ProxyOids.PROXY_CERT_INFO_RFC, true, proxyCertInfo(request));
            builder.addExtension(Extension.keyUsage, true, keyUsage(issuerCert));
            byte[] eku = issuerCert.getExtensionValue(Extension.extendedKeyUsage.getId());
            if (eku != null) {
                boolean critical = issuerCert.getCriticalExtensionOIDs().contains(Extension.extendedKeyUsage.getId());
                builder.addExtension(
                        Extension.extendedKeyUsage,
                        critical,
                        ASN1OctetString.getInstance(eku).getOctets());
            }
            ContentSigner signer = new JcaContentSignerBuilder(signatureAlgorithm(issuer.privateKey()))
                    .setProvider(provider)
                    .build(issuer.privateKey());
            return new JcaX509CertificateConverter().setProvider(provider).getCertificate(builder.build(signer));
        } catch (CertIOException | OperatorCreationException e) {
            throw new GeneralSecurityException("cannot build proxy certificate: " + e.getMessage(), e);
        }
    }

    /**
     * Globus' proxy serial and CN: from SHA-1 of the DER SubjectPublicKeyInfo,
     * {@code md[0] + 256*md[1] + 65536*md[2] + 16777216*(md[3]>>1)} (reference 5.1).
     */
    static BigInteger globusSerial(PublicKey key) throws GeneralSecurityException {
        byte[] md = MessageDigest.getInstance("SHA-1").digest(key.getEncoded());
        long n = (md[0] & 0xffL) + 256L * (md[1] & 0xff) + 65536L * (md[2] & 0xff) + 16777216L * ((md[3] & 0xff) >> 1);
        return BigInteger.valueOf(n);
    }

    /**
     * @param key a private key
     * @return the SHA-256 signature algorithm for its type
     */
    public static String signatureAlgorithm(PrivateKey key) {
        return switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC", "ECDSA" -> "SHA256withECDSA";
            default -> throw new IllegalArgumentException("unsupported key algorithm: " + key.getAlgorithm());
        };
    }

    private static DERSequence proxyCertInfo(ProxyRequest request) {
        ASN1ObjectIdentifier language = switch (request.policy()) {
            case IMPERSONATION -> ProxyOids.INHERIT_ALL;
            case LIMITED -> ProxyOids.GLOBUS_LIMITED;
            case INDEPENDENT -> ProxyOids.INDEPENDENT;
            case RESTRICTED -> throw new IllegalArgumentException("restricted proxies are not supported");
        };
        ASN1EncodableVector info = new ASN1EncodableVector();
        if (request.pathLength() >= 0) {
            info.add(new ASN1Integer(request.pathLength()));
        }
        info.add(new DERSequence(language));
        return new DERSequence(info);
    }

    private static KeyUsage keyUsage(X509Certificate issuer) {
        boolean[] bits = issuer.getKeyUsage();
        if (bits == null) {
            return new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment | KeyUsage.dataEncipherment);
        }
        // java.security.cert bit order: 0 digitalSignature .. 8 decipherOnly; BC flags are the
        // DER bit-string values. nonRepudiation (1) and keyCertSign (5) are dropped (Globus).
        int[] flags = {
            KeyUsage.digitalSignature,
            KeyUsage.nonRepudiation,
            KeyUsage.keyEncipherment,
            KeyUsage.dataEncipherment,
            KeyUsage.keyAgreement,
            KeyUsage.keyCertSign,
            KeyUsage.cRLSign,
            KeyUsage.encipherOnly,
            KeyUsage.decipherOnly
        };
        int usage = 0;
        for (int i = 0; i < Math.min(bits.length, flags.length); i++) {
            if (bits[i] && i != 1 && i != 5) {
                usage |= flags[i];
            }
        }
        return new KeyUsage(usage);
    }

    private static X500Name appendCn(X500Name base, String cn) {
        X500NameBuilder builder = new X500NameBuilder(BCStyle.INSTANCE);
        for (RDN rdn : base.getRDNs()) {
            builder.addMultiValuedRDN(rdn.getTypesAndValues());
        }
        builder.addRDN(BCStyle.CN, cn);
        return builder.build();
    }
}
