package org.ferry.gsi.ca;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Provider;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509CRL;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentVerifierProviderBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.PKCSException;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequest;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.gsi.name.DistinguishedNames;
import org.ferry.gsi.trust.OpensslHashes;

/**
 * An online CA for endpoints, like the one behind Globus Connect's endpoint setup: it issues host
 * and service certificates ({@code CN=host/<fqdn>}, {@code CN=<service>/<fqdn>}, as
 * {@code grid-cert-request -host/-service} name them) to whoever presents a one-time setup key.
 *
 * <p>Directory layout (after Globus Simple CA, reference 5.3): {@code cacert.pem},
 * {@code private/cakey.pem} (unencrypted, 0600: an online CA signs unattended, so protect the
 * directory), {@code certs/<serial>.pem}, {@code revoked/<serial>.pem}, {@code setup-keys}
 * (SHA-256 hashes of unused keys), and {@code certificates/}, a ready trust directory with
 * {@code <hash>.0}, {@code <hash>.signing_policy} and {@code <hash>.r0}.
 */
public final class OnlineCa {
    private static final Pattern SERVICE_NAME = Pattern.compile("[a-zA-Z][a-zA-Z0-9-]*/[a-zA-Z0-9.-]+");
    private static final Duration CA_LIFETIME = Duration.ofDays(1825);
    private static final Duration CERT_LIFETIME = Duration.ofDays(365);
    private static final Duration CRL_LIFETIME = Duration.ofDays(30);

    private final Path dir;
    private final CertificateIssuer issuer;
    private final SetupKeys setupKeys;
    private final Provider provider;

    private OnlineCa(Path dir, CertificateIssuer issuer, Provider provider) {
        this.dir = dir;
        this.issuer = issuer;
        this.provider = provider;
        this.setupKeys = new SetupKeys(dir.resolve("setup-keys"));
    }

    /**
     * Creates a new CA with a 4096-bit key, valid 5 years, in an empty or missing directory.
     *
     * @param subject CA subject in oneline form, e.g. {@code /O=Grid/OU=Ferry/CN=Ferry Online CA}
     * @param dir     CA directory
     * @return the CA
     * @throws IOException              if the directory exists and is not empty, or writing fails
     * @throws GeneralSecurityException if key generation or signing fails
     */
    public static OnlineCa create(String subject, Path dir) throws IOException, GeneralSecurityException {
        return create(subject, dir, 4096);
    }

    /**
     * As {@link #create(String, Path)}, with another CA key size.
     *
     * @param subject CA subject, oneline form
     * @param dir     CA directory
     * @param keyBits RSA modulus size, at least 2048
     * @return the CA
     * @throws IOException              if the directory is not empty or writing fails
     * @throws GeneralSecurityException if key generation or signing fails
     */
    public static OnlineCa create(String subject, Path dir, int keyBits) throws IOException, GeneralSecurityException {
        if (Files.isDirectory(dir)) {
            try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
                if (s.iterator().hasNext()) {
                    throw new IOException("CA directory " + dir + " is not empty");
                }
            }
        }
        Provider provider = new BouncyCastleProvider();
        KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA", provider);
        gen.initialize(Math.max(2048, keyBits), new SecureRandom());
        KeyPair keys = gen.generateKeyPair();
        CertificateIssuer issuer =
                CertificateIssuer.selfSigned(DistinguishedNames.parseOneline(subject), keys, CA_LIFETIME, provider);
        Files.createDirectories(dir.resolve("private"));
        Files.createDirectories(dir.resolve("certs"));
        Files.createDirectories(dir.resolve("revoked"));
        Files.createDirectories(dir.resolve("certificates"));
        PemFiles.writeCertificates(List.of(issuer.caCertificate()), dir.resolve("cacert.pem"));
        PemFiles.writePrivateKey(keys.getPrivate(), dir.resolve("private/cakey.pem"));
        OnlineCa ca = new OnlineCa(dir, issuer, provider);
        ca.writeTrustDirectory();
        return ca;
    }

    /**
     * Opens an existing CA directory made by {@link #create(String, Path)}.
     *
     * @param dir CA directory
     * @return the CA
     * @throws IOException              if files are missing or unreadable
     * @throws GeneralSecurityException if the key does not match the certificate
     */
    public static OnlineCa open(Path dir) throws IOException, GeneralSecurityException {
        GsiCredential ca = PemFiles.readCredential(dir.resolve("cacert.pem"), dir.resolve("private/cakey.pem"), null);
        Provider provider = new BouncyCastleProvider();
        return new OnlineCa(dir, new CertificateIssuer(ca.certificate(), ca.privateKey(), provider), provider);
    }

    /** @return the CA certificate */
    public X509Certificate caCertificate() {
        return issuer.caCertificate();
    }

    /** @return the trust directory to use as {@code X509_CERT_DIR} for this CA's certificates */
    public Path trustDirectory() {
        return dir.resolve("certificates");
    }

    /** @return the signer, for issuing certificates outside the setup-key flow (tests, admin tools) */
    public CertificateIssuer issuer() {
        return issuer;
    }

    /**
     * Makes a new one-time setup key for an endpoint administrator. Only its hash is stored.
     *
     * @return the key (32 hex digits); hand it to the administrator, do not log it
     * @throws IOException if the key file cannot be written
     */
    public String newSetupKey() throws IOException {
        return setupKeys.create();
    }

    /**
     * Issues a host or service certificate for a PKCS#10 request, consuming the setup key.
     *
     * @param csr         the request; its signature is checked, its subject ignored
     * @param serviceName {@code host/<fqdn>} or {@code <service>/<fqdn>}
     * @param setupKey    a key from {@link #newSetupKey()}, not yet used
     * @return the certificate: subject = CA base DN + {@code CN=<serviceName>}, dNSName = fqdn
     * @throws SetupKeyException        if the key is unknown, already used, expired or made for another name
     * @throws GeneralSecurityException if the request signature is bad or signing fails
     * @throws IOException              if the CA directory cannot be updated
     */
    public X509Certificate issueHostCertificate(PKCS10CertificationRequest csr, String serviceName, String setupKey)
            throws GeneralSecurityException, IOException {
        PublicKey key = verifiedKey(csr);
        return issueFor(key, serviceName, setupKey);
    }

    /**
     * Makes a one-time setup key bound to the certificate it may fetch (Globus Connect's setup key:
     * the service makes it when a user adds an endpoint, the endpoint redeems it once with its own
     * certificate request, {@link #redeemSetupKey}). Only its hash is stored.
     *
     * @param serviceName the certificate's name, {@code <service>/<name>} (see {@link #issueHostCertificate})
     * @param lifetime how long the key may wait to be redeemed
     * @return the key (32 hex digits); show it to its user once, do not log it
     * @throws IllegalArgumentException if the name is not of that form or the lifetime not positive
     * @throws IOException if the key file cannot be written
     */
    public String newSetupKey(String serviceName, Duration lifetime) throws IOException {
        if (lifetime.isNegative() || lifetime.isZero()) {
            throw new IllegalArgumentException("lifetime must be positive");
        }
        return newSetupKey(serviceName, Instant.now().plus(lifetime));
    }

    /**
     * As {@link #newSetupKey(String, Duration)}, with the end of its validity given.
     *
     * @param serviceName the certificate's name, {@code <service>/<name>}
     * @param expires when the key stops being accepted (a past instant makes a key that is refused
     *     as expired: for tests and for withdrawing a name's keys)
     * @return the key (32 hex digits)
     * @throws IllegalArgumentException if the name is not of that form
     * @throws IOException if the key file cannot be written
     */
    public String newSetupKey(String serviceName, Instant expires) throws IOException {
        requireServiceName(serviceName);
        return setupKeys.create(serviceName, expires);
    }

    /**
     * Issues the certificate a key from {@link #newSetupKey(String, Duration)} was made for, to the
     * key of a PKCS#10 request (made where the key stays: the private key never travels).
     *
     * @param csr the request; its signature is checked, its subject ignored
     * @param setupKey the key, as the user typed it
     * @return the certificate: subject = CA base DN + {@code CN=<serviceName>}
     * @throws SetupKeyException        UNKNOWN (also for a key that names no service), USED or EXPIRED
     * @throws GeneralSecurityException if the request signature is bad or signing fails
     * @throws IOException              if the CA directory cannot be updated
     */
    public X509Certificate redeemSetupKey(PKCS10CertificationRequest csr, String setupKey)
            throws GeneralSecurityException, IOException {
        PublicKey key = verifiedKey(csr);
        SetupKeys.Grant grant = setupKeys.consume(setupKey, Instant.now());
        if (grant.serviceName() == null) {
            throw new SetupKeyException(SetupKeyException.Reason.UNKNOWN, "setup key names no endpoint");
        }
        return sign(key, grant.serviceName());
    }

    /**
     * The newest certificate this CA issued for a name that is neither revoked nor expired.
     *
     * @param serviceName {@code <service>/<name>}
     * @return it, or empty
     * @throws IOException if the CA directory cannot be read
     */
    public synchronized Optional<X509Certificate> currentCertificate(String serviceName) throws IOException {
        String subject = DistinguishedNames.oneline(subjectFor(serviceName));
        Set<BigInteger> revoked = revokedSerials();
        Instant now = Instant.now();
        X509Certificate newest = null;
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir.resolve("certs"), "*.pem")) {
            for (Path p : s) {
                for (X509Certificate c : PemFiles.readCertificates(p)) {
                    if (!subject.equals(DistinguishedNames.oneline(c.getSubjectX500Principal()))
                            || revoked.contains(c.getSerialNumber())
                            || !now.isBefore(c.getNotAfter().toInstant())) {
                        continue;
                    }
                    if (newest == null || c.getNotBefore().after(newest.getNotBefore())) {
                        newest = c;
                    }
                }
            }
        }
        return Optional.ofNullable(newest);
    }

    /**
     * @param cert a certificate
     * @return true if this CA revoked it
     * @throws IOException if the CA directory cannot be read
     */
    public synchronized boolean isRevoked(X509Certificate cert) throws IOException {
        return revokedSerials().contains(cert.getSerialNumber());
    }

    private Set<BigInteger> revokedSerials() throws IOException {
        Set<BigInteger> serials = new HashSet<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir.resolve("revoked"), "*.pem")) {
            for (Path p : s) {
                String name = p.getFileName().toString();
                serials.add(new BigInteger(name.substring(0, name.length() - ".pem".length()), 16));
            }
        }
        return serials;
    }

    /**
     * Issues a host or service credential with a freshly generated 2048-bit key, consuming the
     * setup key. For setups where the endpoint cannot make its own request.
     *
     * @param serviceName {@code host/<fqdn>} or {@code <service>/<fqdn>}
     * @param setupKey    an unused setup key
     * @return key + certificate (leaf) + CA certificate
     * @throws SetupKeyException        if the key is unknown, already used, expired or made for another name
     * @throws GeneralSecurityException if key generation or signing fails
     * @throws IOException              if the CA directory cannot be updated
     */
    public GsiCredential issueHostCredential(String serviceName, String setupKey)
            throws GeneralSecurityException, IOException {
        KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA", provider);
        gen.initialize(2048, new SecureRandom());
        KeyPair pair = gen.generateKeyPair();
        X509Certificate cert = issueFor(pair.getPublic(), serviceName, setupKey);
        return new GsiCredential(pair.getPrivate(), List.of(cert));
    }

    /**
     * Revokes a certificate and rewrites the CRL {@code certificates/<hash>.r0}.
     *
     * @param cert a certificate this CA issued
     * @throws GeneralSecurityException if signing the CRL fails
     * @throws IOException              if writing fails
     */
    public synchronized void revoke(X509Certificate cert) throws GeneralSecurityException, IOException {
        PemFiles.writeCertificates(
                List.of(cert), dir.resolve("revoked/" + cert.getSerialNumber().toString(16) + ".pem"));
        writeCrl();
    }

    private X509Certificate issueFor(PublicKey key, String serviceName, String setupKey)
            throws GeneralSecurityException, IOException {
        requireServiceName(serviceName);
        SetupKeys.Grant grant = setupKeys.consume(setupKey, Instant.now());
        if (grant.serviceName() != null && !grant.serviceName().equals(serviceName)) {
            throw new SetupKeyException(
                    SetupKeyException.Reason.UNKNOWN, "setup key was made for another name than " + serviceName);
        }
        return sign(key, serviceName);
    }

    private static void requireServiceName(String serviceName) {
        if (!SERVICE_NAME.matcher(serviceName).matches()) {
            throw new IllegalArgumentException("service name must look like host/<fqdn>: " + serviceName);
        }
    }

    private synchronized X509Certificate sign(PublicKey key, String serviceName)
            throws GeneralSecurityException, IOException {
        String fqdn = serviceName.substring(serviceName.indexOf('/') + 1);
        X500Name subject = withCn(baseName(), serviceName);
        Instant now = Instant.now();
        Instant notAfter = now.plus(CERT_LIFETIME);
        if (caCertificate().getNotAfter().toInstant().isBefore(notAfter)) {
            notAfter = caCertificate().getNotAfter().toInstant();
        }
        X509Certificate cert = issuer.issue(subject, key, now.minus(Duration.ofMinutes(5)), notAfter, List.of(fqdn));
        PemFiles.writeCertificates(
                List.of(cert), dir.resolve("certs/" + cert.getSerialNumber().toString(16) + ".pem"));
        return cert;
    }

    private PublicKey verifiedKey(PKCS10CertificationRequest csr) throws GeneralSecurityException {
        try {
            JcaPKCS10CertificationRequest req = new JcaPKCS10CertificationRequest(csr).setProvider(provider);
            PublicKey key = req.getPublicKey();
            if (!csr.isSignatureValid(new JcaContentVerifierProviderBuilder()
                    .setProvider(provider)
                    .build(key))) {
                throw new GeneralSecurityException("certificate request signature is not valid");
            }
            return key;
        } catch (OperatorCreationException | PKCSException e) {
            throw new GeneralSecurityException("cannot verify certificate request: " + e.getMessage(), e);
        }
    }

    /** The CA subject without its CN: what Simple CA puts in front of every issued subject. */
    X500Name baseName() {
        X500Name ca =
                X500Name.getInstance(caCertificate().getSubjectX500Principal().getEncoded());
        X500NameBuilder b = new X500NameBuilder(BCStyle.INSTANCE);
        for (RDN rdn : ca.getRDNs()) {
            if (!rdn.isMultiValued() && BCStyle.CN.equals(rdn.getFirst().getType())) {
                break;
            }
            b.addMultiValuedRDN(rdn.getTypesAndValues());
        }
        return b.build();
    }

    /**
     * @param base a DN
     * @param cn   a CN value
     * @return {@code base} + {@code CN=cn}
     */
    static X500Name withCn(X500Name base, String cn) {
        X500NameBuilder b = new X500NameBuilder(BCStyle.INSTANCE);
        for (RDN rdn : base.getRDNs()) {
            b.addMultiValuedRDN(rdn.getTypesAndValues());
        }
        b.addRDN(BCStyle.CN, cn);
        return b.build();
    }

    /**
     * @param cn a CN value, e.g. a user's name
     * @return the subject this CA's signing policy allows for that CN
     */
    public X500Name subjectFor(String cn) {
        return withCn(baseName(), cn);
    }

    private void writeTrustDirectory() throws IOException, GeneralSecurityException {
        String hash = OpensslHashes.subjectHash(caCertificate().getSubjectX500Principal());
        Path trust = trustDirectory();
        PemFiles.writeCertificates(List.of(caCertificate()), trust.resolve(hash + ".0"));
        String caDn = DistinguishedNames.oneline(caCertificate().getSubjectX500Principal());
        String base = DistinguishedNames.oneline(baseName());
        // EACL grammar of ca-signing-policy.tmpl (reference 5.3).
        String policy = "# Signing policy of " + caDn + ", written by Ferry's OnlineCa\n"
                + "access_id_CA      X509         '" + caDn + "'\n"
                + "pos_rights        globus        CA:sign\n"
                + "cond_subjects     globus       '\"" + base + "/*\"'\n";
        Files.writeString(trust.resolve(hash + ".signing_policy"), policy, StandardCharsets.US_ASCII);
        writeCrl();
    }

    private void writeCrl() throws IOException, GeneralSecurityException {
        List<X509Certificate> revoked = new ArrayList<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir.resolve("revoked"), "*.pem")) {
            for (Path p : s) {
                revoked.addAll(PemFiles.readCertificates(p));
            }
        }
        X509CRL crl = issuer.crl(revoked, Instant.now().plus(CRL_LIFETIME));
        String hash = OpensslHashes.subjectHash(caCertificate().getSubjectX500Principal());
        String pem = PemFiles.toPem(List.of(crl));
        Files.writeString(trustDirectory().resolve(hash + ".r0"), pem, StandardCharsets.US_ASCII);
        String unpadded = hash.replaceFirst("^0+(?=.)", "");
        if (!unpadded.equals(hash)) {
            // Globus looks CRLs up with "%lx" (no zero padding; reference 5.3), OpenSSL and canl
            // with the 8-digit name: a hash with a leading zero needs both.
            Files.writeString(trustDirectory().resolve(unpadded + ".r0"), pem, StandardCharsets.US_ASCII);
        }
    }
}
