package org.ferry.gsi.credential;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.ferry.gsi.TestPki;
import org.ferry.gsi.proxy.ProxyRequest;
import org.ferry.gsi.proxy.factory.BcProxyFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PemFilesTest {
    @TempDir
    Path tmp;

    @Test
    void proxyFileRoundTripsInGridProxyInitLayout() throws Exception {
        TestPki pki = TestPki.create(tmp, "Pem");
        GsiCredential user = pki.user("Pat");
        Path file = tmp.resolve("x509up_u4242");
        GsiCredential proxy = new BcProxyFactory().createProxyFile(user, ProxyRequest.impersonation(), file);
        String pem = Files.readString(file);
        assertThat(pem.indexOf("BEGIN CERTIFICATE")).isLessThan(pem.indexOf("BEGIN RSA PRIVATE KEY"));
        assertThat(pem.lastIndexOf("BEGIN CERTIFICATE")).isGreaterThan(pem.indexOf("BEGIN RSA PRIVATE KEY"));
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");

        CredentialLoader loader = new CredentialLoader(Map.of(), 4242);
        assertThat(loader.proxyPath()).isEqualTo(Path.of("/tmp/x509up_u4242"));
        GsiCredential read = new CredentialLoader(Map.of("X509_USER_PROXY", file.toString()), 0).loadProxy();
        assertThat(read.chain()).isEqualTo(proxy.chain());
        assertThat(read.privateKey().getEncoded()).isEqualTo(proxy.privateKey().getEncoded());
        assertThat(read.identity()).isEqualTo("/O=Grid/OU=Pem/CN=Pat");
        assertThat(read.toString()).doesNotContain("PRIVATE");
    }

    @Test
    void missingProxyTellsTheUserWhatToDo() {
        CredentialLoader loader = new CredentialLoader(
                Map.of("X509_USER_PROXY", tmp.resolve("none").toString()), 0);
        assertThatThrownBy(loader::loadProxy).hasMessageContaining("run grid-proxy-init or set X509_USER_PROXY");
    }

    @Test
    void hostMaterialIsFoundThroughTheEnvironmentElseInEtcGridSecurity() {
        CredentialLoader defaults = new CredentialLoader(Map.of("X509_USER_CERT", ""), 0);
        assertThat(defaults.hostCertificatePath()).isEqualTo(Path.of("/etc/grid-security/hostcert.pem"));
        assertThat(defaults.hostKeyPath()).isEqualTo(Path.of("/etc/grid-security/hostkey.pem"));
        assertThat(defaults.trustDirectory()).isEqualTo(Path.of("/etc/grid-security/certificates"));
        assertThat(defaults.gridMapPath()).isEqualTo(Path.of("/etc/grid-security/grid-mapfile"));
        assertThat(defaults.isSet("X509_USER_CERT")).as("empty counts as unset").isFalse();
        CredentialLoader set = new CredentialLoader(
                Map.of(
                        "X509_USER_CERT",
                        "/c.pem",
                        "X509_USER_KEY",
                        "/k.pem",
                        "X509_CERT_DIR",
                        "/cas",
                        "GRIDMAP",
                        "/map"),
                0);
        assertThat(set.hostCertificatePath()).isEqualTo(Path.of("/c.pem"));
        assertThat(set.hostKeyPath()).isEqualTo(Path.of("/k.pem"));
        assertThat(set.trustDirectory()).isEqualTo(Path.of("/cas"));
        assertThat(set.gridMapPath()).isEqualTo(Path.of("/map"));
        assertThat(set.isSet("GRIDMAP")).isTrue();
    }

    @Test
    void mismatchedKeyIsRefused() throws Exception {
        TestPki pki = TestPki.create(tmp, "Pem2");
        GsiCredential a = pki.user("A");
        GsiCredential b = pki.user("B");
        Path cert = tmp.resolve("cert.pem");
        Path key = tmp.resolve("key.pem");
        PemFiles.writeCertificates(a.chain(), cert);
        PemFiles.writePrivateKey(b.privateKey(), key);
        assertThatThrownBy(() -> PemFiles.readCredential(cert, key, null)).hasMessageContaining("does not match");
    }
}
