package org.ferry.mover.testing;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.ferry.gsi.TestPki;
import org.ferry.gsi.ca.CertificateIssuer;
import org.ferry.gsi.ca.OnlineCa;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.gsi.gridmap.GridMap;
import org.ferry.gsi.gridmap.GridMapAuthorizer;
import org.ferry.gsi.proxy.ProxyRequest;
import org.ferry.gsi.proxy.factory.BcProxyFactory;
import org.ferry.gsi.trust.CanlChainValidator;
import org.ferry.gsi.trust.OpensslTrustDirectory;
import org.ferry.mover.server.pi.GsiServerSecurity;

/**
 * A throw-away GSI PKI for tests, the same for Ferry's and the Globus peers: gsi-security's
 * {@link TestPki}, an {@link OnlineCa} named {@code /O=Grid/OU=<unit>/CN=<unit> CA} (2048-bit) with its
 * OpenSSL trust directory ({@code X509_CERT_DIR}), a validator and trust store over it, a host
 * credential {@code /O=Grid/OU=<unit>/CN=host/localhost} (globus-url-copy checks the name against
 * {@code gsiftp://localhost}, RFC 2228 section 3 (AUTH, ADAT) with the GSI mechanism step 6), and user certificates and RFC 3820
 * proxies {@code /O=Grid/OU=<unit>/CN=<name>} on demand. Close it to release the validator.
 */
public final class GsiTestPki implements AutoCloseable {

    private final String unit;
    private final TestPki pki;
    private final CanlChainValidator validator;
    private final OpensslTrustDirectory trust;
    private final GsiCredential host;

    private GsiTestPki(
            String unit, TestPki pki, CanlChainValidator validator, OpensslTrustDirectory trust, GsiCredential host) {
        this.unit = unit;
        this.pki = pki;
        this.validator = validator;
        this.trust = trust;
        this.host = host;
    }

    /**
     * Creates the CA in {@code dir/ca} and issues the host credential.
     *
     * @param dir an empty or missing directory
     * @param unit the OU of every name, e.g. {@code GucInterop}
     * @return the PKI
     * @throws Exception if the CA directory cannot be written or key generation or signing fails
     */
    public static GsiTestPki create(Path dir, String unit) throws Exception {
        return create(dir, unit, 2048);
    }

    /**
     * Creates the CA, with a key of {@code caKeyBits}, in {@code dir/ca} and issues the host credential.
     *
     * @param dir an empty or missing directory
     * @param unit the OU of every name
     * @param caKeyBits the CA's RSA key size (4096 is {@code grid-ca-create}'s default)
     * @return the PKI
     * @throws Exception if the CA directory cannot be written or key generation or signing fails
     */
    public static GsiTestPki create(Path dir, String unit, int caKeyBits) throws Exception {
        TestPki pki = TestPki.create(dir, unit, caKeyBits);
        GsiCredential host = pki.ca.issueHostCredential("host/localhost", pki.ca.newSetupKey());
        return new GsiTestPki(
                unit, pki, new CanlChainValidator(pki.trustDir()), OpensslTrustDirectory.load(pki.trustDir()), host);
    }

    /** @return the CA (to revoke, or to issue odd certificates) */
    public OnlineCa ca() {
        return pki.ca;
    }

    /** @return the trust directory: {@code <hash>.0}, {@code .signing_policy}, {@code .r0} */
    public Path trustDirectory() {
        return pki.trustDir();
    }

    /** @return a validator over {@link #trustDirectory()} (closed by {@link #close()}) */
    public CanlChainValidator validator() {
        return validator;
    }

    /** @return the CA certificates as a trust store */
    public OpensslTrustDirectory trust() {
        return trust;
    }

    /** @return the host credential {@code host/localhost} (leaf only; its issuer is the CA) */
    public GsiCredential host() {
        return host;
    }

    /**
     * @param cn a CN value
     * @return {@code /O=Grid/OU=<unit>/CN=<cn>}, the identity a grid-mapfile names
     */
    public String dn(String cn) {
        return "/O=Grid/OU=" + unit + "/CN=" + cn;
    }

    /**
     * @param cn the user's CN
     * @param account the local account
     * @return one grid-mapfile line mapping {@link #dn(String)} to {@code account}, with its newline
     */
    public String gridMapLine(String cn, String account) {
        return "\"" + dn(cn) + "\" " + account + "\n";
    }

    /**
     * Issues an end-entity certificate with a new 2048-bit key.
     *
     * @param cn the CN
     * @param notBefore start of validity
     * @param notAfter end of validity
     * @return key and certificate
     * @throws Exception if key generation or signing fails
     */
    public GsiCredential user(String cn, Instant notBefore, Instant notAfter) throws Exception {
        return pki.user(cn, notBefore, notAfter);
    }

    /**
     * @param cn the CN
     * @return an end-entity certificate valid from five minutes ago for a day
     * @throws Exception if key generation or signing fails
     */
    public GsiCredential user(String cn) throws Exception {
        return pki.user(cn);
    }

    /**
     * @param cn the CN
     * @return a 12-hour RFC 3820 impersonation proxy of a new {@link #user(String)}
     * @throws Exception if key generation or signing fails
     */
    public GsiCredential proxy(String cn) throws Exception {
        return proxy(cn, ProxyRequest.impersonation());
    }

    /**
     * @param cn the CN
     * @param request the proxy's kind and lifetime
     * @return a proxy of a new {@link #user(String)}
     * @throws Exception if key generation or signing fails
     */
    public GsiCredential proxy(String cn, ProxyRequest request) throws Exception {
        return new BcProxyFactory().createProxy(user(cn), request);
    }

    /**
     * A user certificate issued by an intermediate CA {@code /O=Grid/OU=<unit>/CN=<unit> Intermediate
     * CA} (4096-bit) that this PKI's CA signs; the intermediate is not in the trust directory, so the
     * user's chain carries it, as a site's chain under a national root does.
     *
     * @param cn the user's CN
     * @param keyBits the user's RSA key size
     * @return the user's key and chain (user certificate, intermediate CA certificate)
     * @throws Exception if key generation or signing fails
     */
    public GsiCredential userUnderIntermediateCa(String cn, int keyBits) throws Exception {
        OnlineCa ca = pki.ca;
        GsiCredential root = PemFiles.readCredential(
                pki.dir.resolve("ca/cacert.pem"), pki.dir.resolve("ca/private/cakey.pem"), null);
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(4096);
        KeyPair intermediateKeys = generator.generateKeyPair();
        Instant now = Instant.now();
        JcaX509ExtensionUtils utils = new JcaX509ExtensionUtils();
        X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                        ca.caCertificate(), BigInteger.valueOf(now.toEpochMilli()),
                        Date.from(now.minusSeconds(300)), Date.from(now.plusSeconds(86_400)),
                        ca.subjectFor(unit + " Intermediate CA"), intermediateKeys.getPublic())
                .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                .addExtension(
                        Extension.subjectKeyIdentifier,
                        false,
                        utils.createSubjectKeyIdentifier(intermediateKeys.getPublic()))
                .addExtension(
                        Extension.authorityKeyIdentifier,
                        false,
                        utils.createAuthorityKeyIdentifier(ca.caCertificate()));
        X509Certificate intermediate = new JcaX509CertificateConverter()
                .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withRSA").build(root.privateKey())));
        CertificateIssuer issuer =
                new CertificateIssuer(intermediate, intermediateKeys.getPrivate(), new BouncyCastleProvider());
        generator.initialize(keyBits);
        KeyPair userKeys = generator.generateKeyPair();
        X509Certificate user = issuer.issue(
                ca.subjectFor(cn), userKeys.getPublic(), now.minusSeconds(300), now.plusSeconds(86_400), List.of());
        return new GsiCredential(userKeys.getPrivate(), List.of(user, intermediate));
    }

    /**
     * Writes a credential as the separate PEM files {@code X509_USER_CERT}/{@code X509_USER_KEY}
     * (globus-gridftp-server's host credential, grid-proxy-init's user credential).
     *
     * @param credential what to write
     * @param cert the certificate chain file
     * @param key the unencrypted private key file
     * @throws IOException if writing fails
     */
    public static void writePemFiles(GsiCredential credential, Path cert, Path key) throws IOException {
        PemFiles.writeCertificates(credential.chain(), cert);
        PemFiles.writePrivateKey(credential.privateKey(), key);
    }

    /**
     * @param gridMap grid-mapfile text
     * @return what a Ferry server needs for AUTH GSSAPI: {@link #host()}, this PKI's trust, the map
     * @throws IOException if the text is not a grid-mapfile
     */
    public GsiServerSecurity serverSecurity(String gridMap) throws IOException {
        return new GsiServerSecurity(host, validator, trust, new GridMapAuthorizer(GridMap.parse(gridMap)));
    }

    @Override
    public void close() {
        validator.close();
    }
}
