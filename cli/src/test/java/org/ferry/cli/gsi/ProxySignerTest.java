package org.ferry.cli.gsi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.ASN1Primitive;
import org.bouncycastle.asn1.ASN1Sequence;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The proxy the CLI signs for the service's key follows RFC 3820: issuer = the user's subject,
 * subject = that plus one CN (the serial), the critical ProxyCertInfo with inherit-all, signed by
 * the user's key, no longer than the user's credential, and for the public key it was given. The
 * real service validates such chains with canl (integration-tests).
 */
class ProxySignerTest {

    @TempDir
    Path tmp;

    private static KeyPair rsa() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return generator.generateKeyPair();
    }

    private static X509Certificate certificate(
            String subject, String issuer, KeyPair subjectKeys, KeyPair issuerKeys, Instant end) throws Exception {
        JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(
                new X500Name(issuer),
                BigInteger.valueOf(System.nanoTime()),
                Date.from(Instant.now().minus(Duration.ofHours(1))),
                Date.from(end),
                new X500Name(subject),
                subjectKeys.getPublic());
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(subject.equals(issuer)));
        return new JcaX509CertificateConverter()
                .getCertificate(
                        builder.build(new JcaContentSignerBuilder("SHA256withRSA").build(issuerKeys.getPrivate())));
    }

    @Test
    void signsAnRfc3820ProxyForTheGivenKeyFromAProxyFile() throws Exception {
        KeyPair ca = rsa();
        KeyPair user = rsa();
        Instant userEnd = Instant.now().plus(Duration.ofHours(5));
        X509Certificate caCert =
                certificate("CN=Test CA,O=Grid", "CN=Test CA,O=Grid", ca, ca, userEnd.plusSeconds(3600));
        X509Certificate userCert = certificate("CN=Some User,OU=X,O=Grid", "CN=Test CA,O=Grid", user, ca, userEnd);
        Path file = tmp.resolve("x509up");
        StringWriter text = new StringWriter();
        try (JcaPEMWriter pem = new JcaPEMWriter(text)) {
            pem.writeObject(userCert);
            pem.writeObject(user.getPrivate());
            pem.writeObject(caCert);
        }
        Files.writeString(file, text.toString());
        ProxySigner.Credential credential = ProxySigner.read(file);

        KeyPair service = rsa();
        String publicKey = "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(service.getPublic().getEncoded())
                + "\n-----END PUBLIC KEY-----\n";
        String chainPem = ProxySigner.sign(credential, publicKey, Duration.ofHours(12), Instant.now());
        assertThat(chainPem).doesNotContain("PRIVATE KEY");
        List<X509Certificate> chain = new ArrayList<>();
        for (var c : CertificateFactory.getInstance("X.509")
                .generateCertificates(new ByteArrayInputStream(chainPem.getBytes(StandardCharsets.US_ASCII)))) {
            chain.add((X509Certificate) c);
        }
        assertThat(chain).hasSize(3);
        X509Certificate proxy = chain.get(0);
        assertThat(chain.subList(1, 3)).containsExactly(userCert, caCert);
        assertThat(proxy.getPublicKey()).isEqualTo(service.getPublic());
        proxy.verify(user.getPublic());
        assertThat(proxy.getIssuerX500Principal()).isEqualTo(userCert.getSubjectX500Principal());
        String subject = proxy.getSubjectX500Principal().getName(X500Principal.RFC2253);
        assertThat(subject)
                .isEqualTo("CN=" + proxy.getSerialNumber() + ","
                        + userCert.getSubjectX500Principal().getName());
        assertThat(proxy.getNotAfter().toInstant()).isBeforeOrEqualTo(userEnd);
        assertThat(proxy.getCriticalExtensionOIDs()).contains("1.3.6.1.5.5.7.1.14");
        ASN1Sequence info = ASN1Sequence.getInstance(
                DEROctetString.getInstance(ASN1Primitive.fromByteArray(proxy.getExtensionValue("1.3.6.1.5.5.7.1.14")))
                        .getOctets());
        assertThat(ASN1Sequence.getInstance(info.getObjectAt(0)).getObjectAt(0).toString())
                .isEqualTo("1.3.6.1.5.5.7.21.1");
        assertThat(proxy.getBasicConstraints()).isEqualTo(-1);
    }

    @Test
    void anExpiredCredentialIsRefusedWithAHint() throws Exception {
        KeyPair ca = rsa();
        KeyPair user = rsa();
        X509Certificate old = certificate(
                "CN=Old User,O=Grid",
                "CN=Test CA,O=Grid",
                user,
                ca,
                Instant.now().minus(Duration.ofMinutes(10)));
        ProxySigner.Credential credential = new ProxySigner.Credential(user.getPrivate(), List.of(old));
        assertThatThrownBy(() -> ProxySigner.sign(
                        credential,
                        "-----BEGIN PUBLIC KEY-----\n-----END PUBLIC KEY-----\n",
                        Duration.ofHours(1),
                        Instant.now()))
                .hasMessageContaining("expired")
                .hasMessageContaining("grid-proxy-init");
    }

    @Test
    void aFileWithoutAKeyIsRefused() throws Exception {
        Path file = Files.writeString(tmp.resolve("cert-only.pem"), "");
        assertThatThrownBy(() -> ProxySigner.read(file)).hasMessageContaining("no certificate");
    }
}
