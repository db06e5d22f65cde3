package org.ferry.gsi.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.ferry.gsi.ExternalTools;
import org.ferry.gsi.ExternalTools.Result;
import org.ferry.gsi.TestPki;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.gsi.myproxy.MyProxyClient;
import org.ferry.gsi.myproxy.MyProxyException;
import org.ferry.gsi.proxy.ProxyCertificates;
import org.ferry.gsi.proxy.ProxyFormat;
import org.ferry.gsi.trust.CanlChainValidator;
import org.ferry.gsi.trust.OpensslTrustDirectory;
import org.ferry.gsi.trust.TrustCache;
import org.ferry.gsi.trust.TrustRoots;
import org.ferry.gsi.trust.ValidatedChain;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ferry's MyProxy client against a real myproxy-server started by the test, with a credential
 * stored by the real myproxy-init. The server's host certificate comes from Ferry's OnlineCa
 * (setup-key flow). Minimal server config, found by running: {@code accepted_credentials "*"}
 * (for myproxy-init to store) and {@code authorized_retrievers "*"} (to retrieve with a
 * passphrase); {@code default_retrievers} is not needed.
 */
class MyProxyInteropTest {
    static final String PASSPHRASE = "ferry-test-passphrase";

    @TempDir
    static Path tmp;

    static TestPki pki;
    static Path pidFile;
    static int port;
    static CanlChainValidator validator;
    static OpensslTrustDirectory trust;

    @BeforeAll
    static void startServer() throws Exception {
        ExternalTools.require("myproxy-server", "myproxy-server");
        ExternalTools.require("myproxy-init", "myproxy");
        pki = TestPki.create(tmp, "MyProxy");
        GsiCredential host = pki.ca.issueHostCredential("host/localhost", pki.ca.newSetupKey());
        PemFiles.writeCertificates(host.chain(), tmp.resolve("hostcert.pem"));
        PemFiles.writePrivateKey(host.privateKey(), tmp.resolve("hostkey.pem"));
        GsiCredential user = pki.user("Myproxy User");
        PemFiles.writeCertificates(user.chain(), tmp.resolve("usercert.pem"));
        PemFiles.writePrivateKey(user.privateKey(), tmp.resolve("userkey.pem"));
        // cert_dir: the trust roots the server hands out (TRUSTED_CERTS, myproxy-logon -T)
        Files.writeString(
                tmp.resolve("myproxy-server.config"),
                "accepted_credentials \"*\"\nauthorized_retrievers \"*\"\ncert_dir " + pki.trustDir() + "\n");
        Path storage = Files.createDirectory(
                tmp.resolve("storage"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        pidFile = tmp.resolve("myproxy-server.pid");
        Map<String, String> env = new HashMap<>(Map.of(
                "X509_CERT_DIR",
                pki.trustDir().toString(),
                "X509_USER_CERT",
                tmp.resolve("hostcert.pem").toString(),
                "X509_USER_KEY",
                tmp.resolve("hostkey.pem").toString()));
        // Without -d the server forks per connection and detaches; its pid goes to the pid file.
        Result started = ExternalTools.run(
                env,
                "myproxy-server",
                "-c",
                tmp.resolve("myproxy-server.config").toString(),
                "-s",
                storage.toString(),
                "-l",
                "127.0.0.1",
                "-p",
                Integer.toString(port),
                "-P",
                pidFile.toString());
        assertThat(started.exitCode()).as(started.output()).isZero();
        waitForPort();

        Map<String, String> userEnv = new HashMap<>(Map.of(
                "X509_CERT_DIR",
                pki.trustDir().toString(),
                "X509_USER_CERT",
                tmp.resolve("usercert.pem").toString(),
                "X509_USER_KEY",
                tmp.resolve("userkey.pem").toString(),
                "X509_USER_PROXY",
                tmp.resolve("userproxy").toString()));
        Result stored = ExternalTools.run(
                userEnv,
                PASSPHRASE + "\n",
                java.util.List.of(
                        "myproxy-init",
                        "-s",
                        "localhost",
                        "-p",
                        Integer.toString(port),
                        "-l",
                        "alice",
                        "-S",
                        "-c",
                        "24",
                        "-t",
                        "12"));
        assertThat(stored.exitCode()).as(stored.output()).isZero();
        assertThat(stored.output()).contains("now exists on localhost");

        validator = new CanlChainValidator(pki.trustDir());
        trust = OpensslTrustDirectory.load(pki.trustDir());
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (validator != null) {
            validator.close();
        }
        if (pidFile != null && Files.exists(pidFile)) {
            long pid = Long.parseLong(Files.readString(pidFile).strip());
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
        }
    }

    private static void waitForPort() throws Exception {
        // a loaded machine starts the daemon slowly: wait for its port, not for a fixed count of tries
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try (Socket s = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException e) {
                Thread.sleep(100);
            }
        }
        throw new IllegalStateException("myproxy-server did not start on port " + port + " within 60 s");
    }

    private MyProxyClient client(String expectedDn) {
        return new MyProxyClient("localhost", port, validator, trust, expectedDn);
    }

    @Test
    void retrievesAProxyWithUsernameAndPassphrase() throws Exception {
        char[] passphrase = PASSPHRASE.toCharArray();
        GsiCredential proxy = client(null).get("alice", passphrase, Duration.ofHours(2));
        assertThat(passphrase).containsOnly('\0');
        ValidatedChain v = validator.validate(proxy.chain());
        assertThat(v.identity()).isEqualTo("/O=Grid/OU=MyProxy/CN=Myproxy User");
        assertThat(ProxyCertificates.info(proxy.certificate()).orElseThrow().format())
                .isEqualTo(ProxyFormat.RFC3820);
        Duration left = Duration.between(
                java.time.Instant.now(), proxy.certificate().getNotAfter().toInstant());
        assertThat(left).isBetween(Duration.ofMinutes(110), Duration.ofMinutes(121));

        // The retrieved credential, written by Ferry, satisfies the Globus tools.
        Path file = tmp.resolve("retrieved");
        PemFiles.writeCredential(proxy, file);
        Result info = ExternalTools.run(
                Map.of("X509_CERT_DIR", pki.trustDir().toString(), "X509_USER_PROXY", file.toString()),
                "grid-proxy-info",
                "-exists");
        assertThat(info.exitCode()).as(info.output()).isZero();
    }

    @Test
    void retrievesTheServersTrustRootsWhenAsked() throws Exception {
        MyProxyClient.Retrieval retrieval =
                client(null).retrieve("alice", PASSPHRASE.toCharArray(), Duration.ofHours(1), true);
        assertThat(retrieval.trustRoots().files().keySet())
                .isEqualTo(TrustRoots.read(pki.trustDir()).files().keySet());
        assertThat(retrieval.trustRoots()).isEqualTo(TrustRoots.read(pki.trustDir()));
        assertThat(retrieval.serverChain().get(0).getSubjectX500Principal().getName())
                .contains("CN=host/localhost");
        assertThat(client(null)
                        .retrieve("alice", PASSPHRASE.toCharArray(), Duration.ofHours(1), false)
                        .trustRoots()
                        .isEmpty())
                .isTrue();
    }

    @Test
    void withoutTrustInItsCaTheServerIsRefused() throws Exception {
        TestPki other = TestPki.create(tmp.resolve("other-pki"), "Elsewhere");
        try (CanlChainValidator otherValidator = new CanlChainValidator(other.trustDir())) {
            MyProxyClient untrusting = new MyProxyClient(
                    "localhost", port, otherValidator, OpensslTrustDirectory.load(other.trustDir()), null);
            char[] passphrase = PASSPHRASE.toCharArray();
            assertThatThrownBy(() -> untrusting.get("alice", passphrase, Duration.ofHours(1)))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("TLS handshake with MyProxy server localhost:" + port + " failed");
            assertThat(passphrase).containsOnly('\0');
        }
    }

    @Test
    void bootstrapsTrustAsMyproxyLogonMinusB() throws Exception {
        MyProxyClient.Retrieval retrieval = MyProxyClient.bootstrapping("localhost", port, null)
                .retrieve("alice", PASSPHRASE.toCharArray(), Duration.ofHours(1), false);
        assertThat(retrieval.trustRoots()).isEqualTo(TrustRoots.read(pki.trustDir()));
        // what the bootstrap brought back validates the server and the credential
        try (TrustCache cache = new TrustCache(tmp.resolve("no-site-cas"), tmp.resolve("trust-work"))) {
            TrustCache.Trust trust = cache.trust(retrieval.trustRoots());
            assertThat(trust.validator().validate(retrieval.serverChain()).identity())
                    .isEqualTo("/O=Grid/OU=MyProxy/CN=host/localhost");
            assertThat(trust.validator()
                            .validate(retrieval.credential().chain())
                            .identity())
                    .isEqualTo("/O=Grid/OU=MyProxy/CN=Myproxy User");
        }
    }

    @Test
    void bootstrappingStillChecksTheServersIdentity() {
        assertThatThrownBy(() -> MyProxyClient.bootstrapping("localhost", port, "/O=Grid/CN=host/elsewhere")
                        .retrieve("alice", PASSPHRASE.toCharArray(), Duration.ofHours(1), false))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("is not the expected identity");
    }

    @Test
    void wrongPassphraseShowsTheServersError() {
        char[] wrong = "not-the-passphrase".toCharArray();
        assertThatThrownBy(() -> client(null).get("alice", wrong, Duration.ofHours(1)))
                .isInstanceOf(MyProxyException.class)
                .hasMessageStartingWith("ERROR from myproxy-server localhost:" + port + ": ")
                .hasMessageContaining("invalid credential passphrase")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("not-the-passphrase"));
        assertThat(wrong).containsOnly('\0');
    }

    @Test
    void unknownUserShowsTheServersError() {
        assertThatThrownBy(() -> client(null).get("nobody", PASSPHRASE.toCharArray(), Duration.ofHours(1)))
                .isInstanceOf(MyProxyException.class)
                .hasMessageContaining("No credentials exist for username \"nobody\"");
    }

    @Test
    void serverWithAnotherIdentityIsRefused() {
        assertThatThrownBy(() -> client("/O=Grid/OU=MyProxy/CN=host/elsewhere")
                        .get("alice", PASSPHRASE.toCharArray(), Duration.ofHours(1)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("TLS handshake with MyProxy server localhost:" + port + " failed")
                .hasMessageContaining("peer /O=Grid/OU=MyProxy/CN=host/localhost is not the expected identity");
    }
}
