package org.ferry.it;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A server certificate for 127.0.0.1 and localhost with its key, as the PEM files a TLS
 * connector reads, and HTTP clients that trust that certificate alone (hostnames verified).
 */
final class SelfSignedTls {

    private final X509Certificate certificate;
    private final Path certificateFile;
    private final Path keyFile;

    private SelfSignedTls(X509Certificate certificate, Path certificateFile, Path keyFile) {
        this.certificate = certificate;
        this.certificateFile = certificateFile;
        this.keyFile = keyFile;
    }

    /** Makes a 2048-bit RSA key and a certificate valid for a day, written under {@code dir}. */
    static SelfSignedTls create(Path dir) throws IOException, GeneralSecurityException {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            KeyPair pair = generator.generateKeyPair();
            X500Name name = new X500Name("CN=localhost");
            Instant now = Instant.now();
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                    name,
                    BigInteger.valueOf(now.toEpochMilli()),
                    Date.from(now.minus(Duration.ofMinutes(5))),
                    Date.from(now.plus(Duration.ofDays(1))),
                    name,
                    pair.getPublic());
            builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                new GeneralName(GeneralName.dNSName, "localhost"), new GeneralName(GeneralName.iPAddress, "127.0.0.1")
            }));
            X509Certificate certificate = new JcaX509CertificateConverter()
                    .getCertificate(
                            builder.build(new JcaContentSignerBuilder("SHA256withRSA").build(pair.getPrivate())));
            Files.createDirectories(dir);
            Path certificateFile = dir.resolve("server-cert.pem");
            Path keyFile = dir.resolve("server-key.pem");
            Files.writeString(certificateFile, pem(certificate));
            Files.writeString(keyFile, pem(pair.getPrivate()));
            return new SelfSignedTls(certificate, certificateFile, keyFile);
        } catch (org.bouncycastle.operator.OperatorCreationException | org.bouncycastle.cert.CertIOException e) {
            throw new GeneralSecurityException(e);
        }
    }

    private static String pem(Object object) throws IOException {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(object);
        }
        return text.toString();
    }

    Path certificateFile() {
        return certificateFile;
    }

    Path keyFile() {
        return keyFile;
    }

    /**
     * @return base64 of the SHA-256 of the certificate's public key (SubjectPublicKeyInfo), as
     *     Chromium's {@code --ignore-certificate-errors-spki-list} takes it: that key alone is trusted
     */
    String publicKeySha256() throws GeneralSecurityException {
        return java.util.Base64.getEncoder()
                .encodeToString(java.security.MessageDigest.getInstance("SHA-256")
                        .digest(certificate.getPublicKey().getEncoded()));
    }

    /** @return a TLS context trusting this certificate only */
    SSLContext clientContext() throws GeneralSecurityException, IOException {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        trust.setCertificateEntry("server", certificate);
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }

    /** @return an HTTP client trusting this certificate, with a cookie jar, not following redirects */
    HttpClient client() throws GeneralSecurityException, IOException {
        return HttpClient.newBuilder()
                .sslContext(clientContext())
                .cookieHandler(new CookieManager(null, CookiePolicy.ACCEPT_ALL))
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(30))
                .build();
    }
}
