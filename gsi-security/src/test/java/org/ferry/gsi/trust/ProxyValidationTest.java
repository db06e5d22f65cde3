package org.ferry.gsi.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.ferry.gsi.TestPki;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.proxy.ProxyCertificates;
import org.ferry.gsi.proxy.ProxyFormat;
import org.ferry.gsi.proxy.ProxyPolicyKind;
import org.ferry.gsi.proxy.ProxyRequest;
import org.ferry.gsi.proxy.factory.BcProxyFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Path validation rules of RFC 3820 section 4 / reference 5.2, each with the message a user sees. */
class ProxyValidationTest {
    @TempDir
    static Path tmp;

    static TestPki pki;
    static GsiCredential alice;
    static CanlChainValidator validator;
    final BcProxyFactory factory = new BcProxyFactory();

    @BeforeAll
    static void setUp() throws Exception {
        pki = TestPki.create(tmp, "Ferry Test");
        alice = pki.user("Alice");
        validator = new CanlChainValidator(pki.trustDir());
    }

    @AfterAll
    static void tearDown() {
        validator.close();
    }

    @Test
    void rfcImpersonationProxyIsShapedLikeGridProxyInit() throws Exception {
        GsiCredential proxy = factory.createProxy(alice, ProxyRequest.impersonation());
        X509Certificate p = proxy.certificate();
        String subject = p.getSubjectX500Principal().getName();
        assertThat(subject).startsWith("CN=" + p.getSerialNumber() + ",CN=Alice,");
        assertThat(p.getIssuerX500Principal()).isEqualTo(alice.certificate().getSubjectX500Principal());
        assertThat(p.getSigAlgName()).isEqualTo("SHA256WITHRSA");
        assertThat(p.getCriticalExtensionOIDs()).contains("1.3.6.1.5.5.7.1.14", "2.5.29.15");
        assertThat(p.getKeyUsage()[1]).as("nonRepudiation cleared").isFalse();
        assertThat(p.getKeyUsage()[0]).as("digitalSignature kept").isTrue();
        assertThat(ProxyCertificates.info(p)).get().satisfies(i -> {
            assertThat(i.format()).isEqualTo(ProxyFormat.RFC3820);
            assertThat(i.policy()).isEqualTo(ProxyPolicyKind.IMPERSONATION);
        });
        Duration life =
                Duration.between(p.getNotBefore().toInstant(), p.getNotAfter().toInstant());
        assertThat(life).isEqualTo(Duration.ofHours(12).plusMinutes(5));

        ValidatedChain v = validator.validate(proxy.chain());
        assertThat(v.identity()).isEqualTo("/O=Grid/OU=Ferry Test/CN=Alice");
        assertThat(v.limited()).isFalse();
        assertThat(proxy.identity()).isEqualTo(v.identity());
    }

    @Test
    void proxyOfProxyAndLimitedProxiesValidate() throws Exception {
        GsiCredential p1 = factory.createProxy(alice, ProxyRequest.impersonation());
        GsiCredential p2 = factory.createProxy(p1, ProxyRequest.limited());
        GsiCredential p3 = factory.createProxy(p2, ProxyRequest.limited());
        ValidatedChain v = validator.validate(p3.chain());
        assertThat(v.limited()).isTrue();
        assertThat(v.identity()).isEqualTo("/O=Grid/OU=Ferry Test/CN=Alice");
        assertThat(p3.chain()).hasSize(4);
    }

    @Test
    void proxyNeverOutlivesItsIssuer() throws Exception {
        GsiCredential shortUser =
                pki.user("Short", Instant.now().minusSeconds(600), Instant.now().plus(Duration.ofHours(1)));
        GsiCredential proxy = factory.createProxy(shortUser, ProxyRequest.impersonation());
        assertThat(proxy.certificate().getNotAfter())
                .isEqualTo(shortUser.certificate().getNotAfter());
    }

    @Test
    void expiredProxyIsRejected() throws Exception {
        Clock lastWeek = Clock.fixed(Instant.now().minus(Duration.ofDays(7)), ZoneOffset.UTC);
        BcProxyFactory past = new BcProxyFactory(new BouncyCastleProvider(), lastWeek, new SecureRandom());
        GsiCredential user = pki.user(
                "Bob", Instant.now().minus(Duration.ofDays(30)), Instant.now().plus(Duration.ofDays(1)));
        GsiCredential proxy = past.createProxy(user, ProxyRequest.impersonation());
        assertThatThrownBy(() -> validator.validate(proxy.chain()))
                .isInstanceOf(CertificateValidationException.class)
                .hasMessageContaining("Certificate has expired on:")
                .hasMessageContaining(
                        "/O=Grid/OU=Ferry Test/CN=Bob/CN=" + proxy.certificate().getSerialNumber());
    }

    @Test
    void proxySignedByTheWrongKeyIsRejected() throws Exception {
        GsiCredential mallory = pki.user("Mallory");
        // Alice's certificate with Mallory's key: the proxy names Alice as issuer but the
        // signature does not verify with Alice's public key.
        GsiCredential forged = new GsiCredential(mallory.privateKey(), alice.chain());
        GsiCredential proxy = factory.createProxy(forged, ProxyRequest.impersonation());
        assertThatThrownBy(() -> validator.validate(proxy.chain()))
                .isInstanceOf(CertificateValidationException.class)
                // the SignatureException's own text depends on the provider that checked it
                .hasMessageStartingWith("certificate chain of /O=Grid/OU=Ferry Test/CN=Alice/CN="
                        + proxy.certificate().getSerialNumber() + " rejected: Signature of a certificate is invalid: ")
                .hasMessageEndingWith("[/O=Grid/OU=Ferry Test/CN=Alice/CN="
                        + proxy.certificate().getSerialNumber() + "]");
    }

    @Test
    void certificateFromAnUntrustedCaIsRejected() throws Exception {
        TestPki other = TestPki.create(tmp.resolve("other"), "Elsewhere");
        GsiCredential eve = other.user("Eve");
        GsiCredential proxy = factory.createProxy(eve, ProxyRequest.impersonation());
        assertThatThrownBy(() -> validator.validate(proxy.chain()))
                .isInstanceOf(CertificateValidationException.class)
                .hasMessageContaining("No trusted CA certificate was found for the certificate chain");
    }

    @Test
    void revokedCertificateIsRejectedThroughTheCrl() throws Exception {
        TestPki revoking = TestPki.create(tmp.resolve("revoking"), "Revoking");
        GsiCredential carol = revoking.user("Carol");
        GsiCredential proxy = factory.createProxy(carol, ProxyRequest.impersonation());
        try (CanlChainValidator before = new CanlChainValidator(revoking.trustDir())) {
            assertThat(before.validate(proxy.chain()).identity()).isEqualTo("/O=Grid/OU=Revoking/CN=Carol");
        }
        revoking.ca.revoke(carol.certificate());
        try (CanlChainValidator after = new CanlChainValidator(revoking.trustDir())) {
            assertThatThrownBy(() -> after.validate(proxy.chain()))
                    .isInstanceOf(CertificateValidationException.class)
                    .hasMessageContaining("revoked")
                    .hasMessageContaining("/O=Grid/OU=Revoking/CN=Carol");
        }
    }

    @Test
    void limitedProxyIsRejectedWhereAFullOneIsRequired() throws Exception {
        GsiCredential limited = factory.createProxy(alice, ProxyRequest.limited());
        ValidatedChain v = validator.validate(limited.chain());
        assertThat(v.limited()).isTrue();
        assertThatThrownBy(v::requireFullProxy)
                .isInstanceOf(CertificateValidationException.class)
                .hasMessage("limited proxy not accepted for /O=Grid/OU=Ferry Test/CN=Alice: this operation needs"
                        + " a full proxy (make one with grid-proxy-init without -limited)");
        assertThat(validator
                        .validate(factory.createProxy(alice, ProxyRequest.impersonation())
                                .chain())
                        .requireFullProxy()
                        .limited())
                .isFalse();
    }

    @Test
    void fullProxyCannotBeSignedUnderALimitedOne() throws Exception {
        GsiCredential limited = factory.createProxy(alice, ProxyRequest.limited());
        assertThatThrownBy(() -> factory.createProxy(limited, ProxyRequest.impersonation()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Can't sign a non-limited, non-independent proxy with a limited proxy");
    }

    @Test
    void proxyPathLengthIsEnforced() throws Exception {
        GsiCredential p1 =
                factory.createProxy(alice, ProxyRequest.impersonation().withPathLength(0));
        assertThat(validator.validate(p1.chain()).identity()).endsWith("CN=Alice");
        GsiCredential p2 = factory.createProxy(p1, ProxyRequest.impersonation());
        assertThatThrownBy(() -> validator.validate(p2.chain()))
                .isInstanceOf(CertificateValidationException.class)
                .hasMessageContaining("proxy certificates chain exceeded its length limit");
    }

    @Test
    void proxyWhoseIssuerIsNotItsPredecessorIsRejected() throws Exception {
        GsiCredential p1 = factory.createProxy(alice, ProxyRequest.impersonation());
        GsiCredential bob = pki.user("Bob2");
        // Chain that claims Bob's certificate issued Alice's proxy.
        List<X509Certificate> wrong = new ArrayList<>(List.of(p1.certificate(), bob.certificate()));
        assertThatThrownBy(() -> validator.validate(wrong)).isInstanceOf(CertificateValidationException.class);
    }

    @Test
    void emptyChainIsRejected() {
        assertThatThrownBy(() -> validator.validate(List.of()))
                .isInstanceOf(CertificateValidationException.class)
                .hasMessage("no certificate presented");
    }
}
