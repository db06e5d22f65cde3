package org.ferry.cli.gsi;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.ASN1EncodableVector;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMException;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Signs an RFC 3820 proxy certificate for someone else's public key with the user's credential,
 * as GSI delegation does (the delegatee made the key pair; its private key never travels, nor does
 * the user's): subject = the issuer's subject plus {@code CN=<serial>}, a random serial, a
 * ProxyCertInfo extension (RFC 3820 section 3.8, critical) with the inherit-all policy, no longer
 * than the issuer, signed with SHA-256.
 */
public final class ProxySigner {

    /** RFC 3820 ProxyCertInfo. */
    static final ASN1ObjectIdentifier PROXY_CERT_INFO = new ASN1ObjectIdentifier("1.3.6.1.5.5.7.1.14");
    /** RFC 3820 id-ppl-inheritAll: the proxy has all its issuer's rights. */
    static final ASN1ObjectIdentifier INHERIT_ALL = new ASN1ObjectIdentifier("1.3.6.1.5.5.7.21.1");

    private static final Duration CLOCK_SKEW = Duration.ofMinutes(5);

    /**
     * The user's credential: a key and its certificate chain, leaf first.
     *
     * @param key the leaf's private key
     * @param chain the leaf (the user's proxy or certificate) and its issuers
     */
    public record Credential(PrivateKey key, List<X509Certificate> chain) {
        /** Copies the chain. */
        public Credential {
            chain = List.copyOf(chain);
        }

        /** @return when the credential stops working: the earliest end in its chain */
        public Instant notAfter() {
            return chain.stream()
                    .map(c -> c.getNotAfter().toInstant())
                    .min(Instant::compareTo)
                    .orElseThrow();
        }

        /** Never prints the key. */
        @Override
        public String toString() {
            return "Credential[" + chain.get(0).getSubjectX500Principal() + "]";
        }
    }

    private ProxySigner() {}

    /**
     * Reads a credential file in a proxy file's layout (what grid-proxy-init writes: certificate,
     * unencrypted private key, then the chain).
     *
     * @param file the file
     * @return the credential
     * @throws IOException if it cannot be read, holds no certificate or key, or the key is encrypted
     */
    public static Credential read(Path file) throws IOException {
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.US_ASCII)) {
            return read(reader, file.toString());
        }
    }

    static Credential read(Reader source, String name) throws IOException {
        List<X509Certificate> chain = new ArrayList<>();
        PrivateKey key = null;
        JcaPEMKeyConverter keys = new JcaPEMKeyConverter();
        JcaX509CertificateConverter certificates = new JcaX509CertificateConverter();
        try (PEMParser parser = new PEMParser(source)) {
            Object o;
            while ((o = parser.readObject()) != null) {
                if (o instanceof X509CertificateHolder holder) {
                    chain.add(certificates.getCertificate(holder));
                } else if (o instanceof PEMKeyPair pair && key == null) {
                    key = keys.getPrivateKey(pair.getPrivateKeyInfo());
                } else if (o instanceof PrivateKeyInfo info && key == null) {
                    key = keys.getPrivateKey(info);
                } else if (key == null && o.getClass().getSimpleName().contains("Encrypted")) {
                    throw new IOException(name + ": the private key is encrypted; make a proxy with grid-proxy-init"
                            + " and delegate that");
                }
            }
        } catch (PEMException | CertificateException e) {
            throw new IOException(name + ": not a PEM credential: " + e.getMessage(), e);
        }
        if (chain.isEmpty()) {
            throw new IOException(name + ": no certificate found");
        }
        if (key == null) {
            throw new IOException(name + ": no private key found (a proxy file holds one)");
        }
        return new Credential(key, chain);
    }

    /**
     * @param issuer the user's credential
     * @param publicKeyPem the public key to certify, PEM ({@code BEGIN PUBLIC KEY})
     * @param lifetime the proxy's lifetime (capped by the issuer's)
     * @param now the time it starts
     * @return the new proxy certificate followed by the issuer's chain, PEM (certificates only)
     * @throws IOException if the key does not parse, the issuer has expired, or signing fails
     */
    public static String sign(Credential issuer, String publicKeyPem, Duration lifetime, Instant now)
            throws IOException {
        X509Certificate leaf = issuer.chain().get(0);
        Instant end = now.plus(lifetime);
        if (end.isAfter(issuer.notAfter())) {
            end = issuer.notAfter();
        }
        if (!end.isAfter(now)) {
            throw new IOException("your credential " + leaf.getSubjectX500Principal() + " expired at "
                    + issuer.notAfter() + ": make a new proxy (grid-proxy-init)");
        }
        Instant start = now.minus(CLOCK_SKEW);
        if (start.isBefore(leaf.getNotBefore().toInstant())) {
            start = leaf.getNotBefore().toInstant();
        }
        BigInteger serial = new BigInteger(62, new SecureRandom()).add(BigInteger.ONE);
        X500Name issuerName =
                X500Name.getInstance(leaf.getSubjectX500Principal().getEncoded());
        X500NameBuilder names = new X500NameBuilder(BCStyle.INSTANCE);
        for (var rdn : issuerName.getRDNs()) {
            if (rdn.isMultiValued()) {
                names.addMultiValuedRDN(rdn.getTypesAndValues());
            } else {
                names.addRDN(rdn.getFirst());
            }
        }
        names.addRDN(BCStyle.CN, serial.toString());
        X500Name subject = names.build();
        try {
            X509v3CertificateBuilder builder = new X509v3CertificateBuilder(
                    issuerName,
                    serial,
                    Date.from(start),
                    Date.from(end),
                    subject,
                    SubjectPublicKeyInfo.getInstance(publicKeyDer(publicKeyPem)));
            ASN1EncodableVector policy = new ASN1EncodableVector();
            policy.add(INHERIT_ALL);
            builder.addExtension(PROXY_CERT_INFO, true, new DERSequence(new DERSequence(policy)));
            String algorithm = issuer.key().getAlgorithm().equals("EC") ? "SHA256withECDSA" : "SHA256withRSA";
            X509Certificate proxy = new JcaX509CertificateConverter()
                    .getCertificate(builder.build(new JcaContentSignerBuilder(algorithm).build(issuer.key())));
            List<X509Certificate> out = new ArrayList<>();
            out.add(proxy);
            out.addAll(issuer.chain());
            return pem(out);
        } catch (OperatorCreationException | CertificateException | IllegalArgumentException e) {
            throw new IOException("cannot sign the proxy: " + e.getMessage(), e);
        }
    }

    private static byte[] publicKeyDer(String pem) throws IOException {
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            Object o = parser.readObject();
            if (o instanceof SubjectPublicKeyInfo info) {
                return info.getEncoded();
            }
        }
        throw new IOException("the service's public key is not a PEM public key");
    }

    private static String pem(List<X509Certificate> certificates) throws IOException {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(out)) {
            for (X509Certificate c : certificates) {
                writer.writeObject(c);
            }
        }
        return out.toString();
    }
}
