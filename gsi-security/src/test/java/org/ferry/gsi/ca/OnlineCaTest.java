package org.ferry.gsi.ca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.name.DistinguishedNames;
import org.ferry.gsi.trust.CanlChainValidator;
import org.ferry.gsi.trust.OpensslHashes;
import org.ferry.gsi.trust.OpensslTrustDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OnlineCaTest {
    @TempDir
    Path tmp;

    @Test
    void issuesHostCertificatesAgainstOneTimeSetupKeys() throws Exception {
        OnlineCa ca = OnlineCa.create("/O=Grid/OU=Ferry/CN=Ferry Online CA", tmp.resolve("ca"), 2048);
        String key = ca.newSetupKey();
        assertThat(key).matches("[0-9a-f]{32}");
        assertThat(Files.readString(tmp.resolve("ca/setup-keys"))).doesNotContain(key);

        KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
        gen.initialize(2048);
        KeyPair pair = gen.generateKeyPair();
        PKCS10CertificationRequest csr = new JcaPKCS10CertificationRequestBuilder(
                        new X500Name("CN=ignored"), pair.getPublic())
                .build(new JcaContentSignerBuilder("SHA256withRSA").build(pair.getPrivate()));
        X509Certificate host = ca.issueHostCertificate(csr, "host/endpoint.example.org", key);
        assertThat(DistinguishedNames.oneline(host.getSubjectX500Principal()))
                .isEqualTo("/O=Grid/OU=Ferry/CN=host/endpoint.example.org");
        assertThat(host.getSubjectAlternativeNames())
                .anySatisfy(n -> assertThat(n.get(1)).isEqualTo("endpoint.example.org"));
        assertThat(host.getPublicKey()).isEqualTo(pair.getPublic());

        assertThatThrownBy(() -> ca.issueHostCertificate(csr, "host/endpoint.example.org", key))
                .isInstanceOf(SetupKeyException.class)
                .hasMessageStartingWith("setup key has already been used");
        assertThatThrownBy(() -> ca.issueHostCredential("host/x.example.org", "0123456789abcdef0123456789abcdef"))
                .isInstanceOf(SetupKeyException.class);

        GsiCredential service = ca.issueHostCredential("gridftp/dtn.example.org", ca.newSetupKey());
        try (CanlChainValidator v = new CanlChainValidator(ca.trustDirectory())) {
            assertThat(v.validate(service.chain()).identity()).isEqualTo("/O=Grid/OU=Ferry/CN=gridftp/dtn.example.org");
            assertThat(v.validate(java.util.List.of(host)).identity()).endsWith("CN=host/endpoint.example.org");
        }
    }

    @Test
    void writesAHashedTrustDirectoryAndReopens() throws Exception {
        OnlineCa ca = OnlineCa.create("/O=Grid/OU=Ferry/CN=Ferry Online CA", tmp.resolve("ca"), 2048);
        String hash = OpensslHashes.subjectHash(ca.caCertificate().getSubjectX500Principal());
        Path trust = ca.trustDirectory();
        assertThat(trust.resolve(hash + ".0")).exists();
        assertThat(trust.resolve(hash + ".r0")).exists();
        assertThat(Files.readString(trust.resolve(hash + ".signing_policy")))
                .contains("access_id_CA      X509         '/O=Grid/OU=Ferry/CN=Ferry Online CA'")
                .contains("cond_subjects     globus       '\"/O=Grid/OU=Ferry/*\"'");
        assertThat(OpensslTrustDirectory.load(trust).caCertificates()).containsExactly(ca.caCertificate());
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(
                        Files.getPosixFilePermissions(tmp.resolve("ca/private/cakey.pem"))))
                .isEqualTo("rw-------");
        OnlineCa reopened = OnlineCa.open(tmp.resolve("ca"));
        assertThat(reopened.caCertificate()).isEqualTo(ca.caCertificate());
        assertThatThrownBy(() -> OnlineCa.create("/O=Grid/CN=Again", tmp.resolve("ca"), 2048))
                .hasMessageContaining("is not empty");
    }

    @Test
    void rejectsBadServiceNames() throws Exception {
        OnlineCa ca = OnlineCa.create("/O=Grid/OU=Ferry/CN=Ferry Online CA", tmp.resolve("ca"), 2048);
        String key = ca.newSetupKey();
        assertThatThrownBy(() -> ca.issueHostCredential("endpoint.example.org", key))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("host/<fqdn>");
        // A rejected name does not use up the key.
        assertThat(ca.issueHostCredential("host/ok.example.org", key).identity())
                .endsWith("CN=host/ok.example.org");
    }
}
