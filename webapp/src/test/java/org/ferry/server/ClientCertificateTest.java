package org.ferry.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Socket;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Map;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;
import org.ferry.api.domain.Role;
import org.ferry.api.identity.AccountService;
import org.ferry.gsi.TestPki;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.gsi.proxy.ProxyRequest;
import org.ferry.gsi.proxy.factory.BcProxyFactory;
import org.ferry.server.https.HttpsListener;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * X.509 client certificates over mutual TLS on the HTTPS listener: a proxy chain (RFC 3820) and
 * a plain user certificate of a mapped DN log in as the account the grid-mapfile names; an
 * unmapped DN, a certificate of an unknown CA, or an unknown account get 401 naming why.
 * Certificates come from a real CA (gsi-security's online CA), proxies from its proxy factory.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClientCertificateTest {

    private static final Path HOME = TestHomes.create("ferry-x509");
    private static final TestPki PKI = pki(HOME.resolve("pki"), "X509Api");
    private static final Path GRIDMAP = HOME.resolve("grid-mapfile");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) throws Exception {
        GsiCredential host = PKI.ca.issueHostCredential("host/localhost", PKI.ca.newSetupKey());
        Path hostCert = HOME.resolve("hostcert.pem");
        Path hostKey = HOME.resolve("hostkey.pem");
        PemFiles.writeCertificates(host.chain(), hostCert);
        PemFiles.writePrivateKey(host.privateKey(), hostKey);
        Files.writeString(
                GRIDMAP,
                "\"/O=Grid/OU=X509Api/CN=Mapped User\" xuser\n" + "\"/O=Grid/OU=X509Api/CN=Ghost User\" ghost\n");
        registry.add("ferry.home", HOME::toString);
        registry.add("ferry.https.port", () -> "0");
        registry.add("ferry.https.host-cert", hostCert::toString);
        registry.add("ferry.https.host-key", hostKey::toString);
        registry.add("ferry.https.ca-dir", () -> PKI.trustDir().toString());
        registry.add("ferry.https.gridmap", GRIDMAP::toString);
    }

    private static TestPki pki(Path dir, String ou) {
        try {
            return TestPki.create(dir, ou);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Autowired
    HttpsListener https;

    @Autowired
    AccountService accounts;

    GsiCredential mapped;

    @BeforeAll
    void accounts() throws Exception {
        accounts.create("xuser", Role.USER, null);
        mapped = PKI.user("Mapped User");
    }

    private ApiClient over(GsiCredential credential, String token) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", PKI.ca.caCertificate());
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(
                credential == null ? null : new KeyManager[] {new OneCredential(credential)},
                trustManagers.getTrustManagers(),
                null);
        HttpClient http = HttpClient.newBuilder().sslContext(tls).build();
        return ApiClient.of("https://localhost:" + https.port(), token, http);
    }

    @Test
    void aProxyChainOfAMappedDnLogsInAsTheMappedAccount() throws Exception {
        GsiCredential proxy = new BcProxyFactory().createProxy(mapped, ProxyRequest.impersonation());
        assertThat(proxy.isProxy()).isTrue();
        JsonNode me = over(proxy, null).get("/v0.10/me").body();
        assertThat(me.get("username").asString()).isEqualTo("xuser");
        assertThat(me.get("authentication").asString()).isEqualTo("CERTIFICATE");
        assertThat(me.get("subject").asString()).isEqualTo("/O=Grid/OU=X509Api/CN=Mapped User");
        // a proxy of a proxy still names the same identity
        GsiCredential second = new BcProxyFactory().createProxy(proxy, ProxyRequest.impersonation());
        assertThat(over(second, null).get("/v0.10/me").body().get("username").asString())
                .isEqualTo("xuser");
        // and the certificate is enough to work: an endpoint of xuser's
        ApiClient.Answer created = over(proxy, null)
                .post("/v0.10/endpoint", Map.of("canonical_name", "xuser#x", "url", "ftp://127.0.0.1:1"));
        assertThat(created.status()).isEqualTo(201);
    }

    @Test
    void theUserCertificateItselfWorksToo() throws Exception {
        assertThat(over(mapped, null).get("/v0.10/me").body().get("username").asString())
                .isEqualTo("xuser");
    }

    @Test
    void anUnmappedDnAnUnknownCaAndAMissingAccountAre401() throws Exception {
        ApiClient.Answer unmapped = over(PKI.user("Stranger"), null).get("/v0.10/me");
        assertThat(unmapped.status()).isEqualTo(401);
        assertThat(unmapped.body().get("message").asString()).contains("Gridmap lookup failure");

        TestPki other = TestPki.create(HOME.resolve("other-pki"), "X509Api");
        ApiClient.Answer foreign = over(other.user("Mapped User"), null).get("/v0.10/me");
        assertThat(foreign.status()).isEqualTo(401);
        assertThat(foreign.body().get("message").asString()).contains("rejected");

        ApiClient.Answer ghost = over(PKI.user("Ghost User"), null).get("/v0.10/me");
        assertThat(ghost.status()).isEqualTo(401);
        assertThat(ghost.body().get("message").asString()).contains("'ghost'", "no enabled Ferry account");
    }

    @Test
    void aTokenStillWorksOverTheHttpsListener() throws Exception {
        String token = Files.readString(HOME.resolve("token")).trim();
        JsonNode me = over(null, token).get("/v0.10/me").body();
        assertThat(me.get("username").asString()).isEqualTo("admin");
        assertThat(me.get("authentication").asString()).isEqualTo("TOKEN");
    }

    /** Presents one credential (a proxy chain too) whatever CA names the server asks for. */
    private static final class OneCredential extends X509ExtendedKeyManager {
        private final GsiCredential credential;

        OneCredential(GsiCredential credential) {
            this.credential = credential;
        }

        @Override
        public String[] getClientAliases(String keyType, Principal[] issuers) {
            return new String[] {"me"};
        }

        @Override
        public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
            return "me";
        }

        @Override
        public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
            return "me";
        }

        @Override
        public String[] getServerAliases(String keyType, Principal[] issuers) {
            return null;
        }

        @Override
        public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
            return null;
        }

        @Override
        public X509Certificate[] getCertificateChain(String alias) {
            return credential.chain().toArray(X509Certificate[]::new);
        }

        @Override
        public PrivateKey getPrivateKey(String alias) {
            return credential.privateKey();
        }
    }
}
