package org.ferry.gsi.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.ferry.gsi.ExternalTools;
import org.ferry.gsi.ExternalTools.Result;
import org.ferry.gsi.ca.CertificateIssuer;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.gsi.name.DistinguishedNames;
import org.ferry.gsi.trust.CanlChainValidator;
import org.ferry.gsi.trust.OpensslHashes;
import org.ferry.gsi.trust.OpensslTrustDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CA made by Globus' {@code grid-ca-create} loads as a Ferry trust directory, its encrypted key
 * reads with the passphrase, its signing policy is enforced, and grid-proxy-init proxies of its
 * users validate.
 */
class GridCaCreateInteropTest {
    /** grid-ca-create (as root) also installs into this directory; the test removes what it added. */
    static final Path SYSTEM_CERTS = Path.of("/etc/grid-security/certificates");

    @TempDir
    Path tmp;

    @Test
    void gridCaCreateDirectoryLoadsAndValidates() throws Exception {
        ExternalTools.require("grid-ca-create", "globus-simple-ca");
        ExternalTools.require("grid-proxy-init", "globus-proxy-utils");
        Path caDir = tmp.resolve("simpleCA");
        boolean systemDirExisted = Files.isDirectory(SYSTEM_CERTS);
        List<Path> before = systemDirExisted ? list(SYSTEM_CERTS) : List.of();
        Result r;
        try {
            r = ExternalTools.run(
                    Map.of(),
                    "grid-ca-create",
                    "-noint",
                    "-nobuild",
                    "-bits",
                    "2048",
                    "-days",
                    "30",
                    "-subject",
                    "cn=Simple CA, ou=FerryInterop, o=Grid",
                    "-dir",
                    caDir.toString(),
                    "-pass",
                    "capass");
        } finally {
            cleanSystemDir(systemDirExisted, before);
        }
        assertThat(r.exitCode()).as(r.output()).isZero();

        // Assemble the trust directory the way the test-environment notes describe.
        X509Certificate caCert =
                PemFiles.readCertificates(caDir.resolve("cacert.pem")).get(0);
        String hash = OpensslHashes.subjectHash(caCert.getSubjectX500Principal());
        Result opensslHash = ExternalTools.run(
                Map.of(), "openssl", "x509", "-in", caDir.resolve("cacert.pem").toString(), "-noout", "-hash");
        assertThat(opensslHash.output().strip()).isEqualTo(hash);
        Path trust = Files.createDirectories(tmp.resolve("certificates"));
        Files.copy(caDir.resolve("cacert.pem"), trust.resolve(hash + ".0"));
        Files.copy(caDir.resolve("signing-policy"), trust.resolve(hash + ".signing_policy"));
        assertThat(OpensslTrustDirectory.load(trust).caCertificates()).containsExactly(caCert);
        assertThat(DistinguishedNames.oneline(caCert.getSubjectX500Principal()))
                .isEqualTo("/O=Grid/OU=FerryInterop/CN=Simple CA");

        // The Simple CA key is encrypted (PKCS#8); Ferry reads it with the passphrase.
        GsiCredential ca = PemFiles.readCredential(
                caDir.resolve("cacert.pem"), caDir.resolve("private/cakey.pem"), "capass".toCharArray());
        CertificateIssuer issuer = new CertificateIssuer(ca.certificate(), ca.privateKey(), new BouncyCastleProvider());
        KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
        gen.initialize(2048);
        KeyPair pair = gen.generateKeyPair();
        Instant now = Instant.now();
        X509Certificate inside = issuer.issue(
                DistinguishedNames.parseOneline("/O=Grid/OU=FerryInterop/CN=Inside"),
                pair.getPublic(),
                now.minusSeconds(300),
                now.plus(Duration.ofDays(1)),
                List.of());
        X509Certificate outside = issuer.issue(
                DistinguishedNames.parseOneline("/O=Elsewhere/CN=Outside"),
                pair.getPublic(),
                now.minusSeconds(300),
                now.plus(Duration.ofDays(1)),
                List.of());

        try (CanlChainValidator validator = new CanlChainValidator(trust)) {
            assertThat(validator.validate(List.of(inside)).identity()).isEqualTo("/O=Grid/OU=FerryInterop/CN=Inside");
            // The signing policy only allows /O=Grid/OU=FerryInterop/*.
            assertThatThrownBy(() -> validator.validate(List.of(outside)))
                    .hasMessageContaining("/O=Elsewhere/CN=Outside")
                    .hasMessageContaining("namespace");

            Path cert = tmp.resolve("usercert.pem");
            Path key = tmp.resolve("userkey.pem");
            PemFiles.writeCertificates(List.of(inside), cert);
            PemFiles.writePrivateKey(pair.getPrivate(), key);
            Path proxy = tmp.resolve("proxy");
            Map<String, String> env = new HashMap<>(Map.of(
                    "X509_CERT_DIR",
                    trust.toString(),
                    "X509_USER_CERT",
                    cert.toString(),
                    "X509_USER_KEY",
                    key.toString(),
                    "X509_USER_PROXY",
                    proxy.toString()));
            Result gpi = ExternalTools.run(env, "grid-proxy-init", "-q");
            assertThat(gpi.exitCode()).as(gpi.output()).isZero();
            assertThat(validator
                            .validate(PemFiles.readCredential(proxy).chain())
                            .identity())
                    .isEqualTo("/O=Grid/OU=FerryInterop/CN=Inside");
        }
    }

    private static List<Path> list(Path dir) throws Exception {
        try (var s = Files.list(dir)) {
            return s.toList();
        }
    }

    private static void cleanSystemDir(boolean existed, List<Path> before) throws Exception {
        if (!Files.isDirectory(SYSTEM_CERTS)) {
            return;
        }
        for (Path p : list(SYSTEM_CERTS)) {
            if (!before.contains(p)) {
                Files.delete(p);
            }
        }
        if (!existed) {
            Files.delete(SYSTEM_CERTS);
        }
    }
}
