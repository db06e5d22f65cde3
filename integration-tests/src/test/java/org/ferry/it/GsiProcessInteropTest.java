package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.ferry.gsi.TestPki;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.gsi.proxy.ProxyRequest;
import org.ferry.gsi.proxy.factory.BcProxyFactory;
import org.ferry.gsi.trust.CanlChainValidator;
import org.ferry.gsi.trust.OpensslTrustDirectory;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpReplyException;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.client.GsiClientSecurity;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ferry-gridftp} from its packaged jar with its GSI material named by options alone
 * ({@code --host-cert}, {@code --host-key}, {@code --ca-dir}, {@code --gridmap}, which imply
 * {@code --gsi}; no {@code X509_*} or {@code GRIDMAP} in its environment), against the real
 * grid-proxy-init and globus-url-copy: a {@code gsiftp://} download and upload move a file byte for
 * byte; a DN missing from the grid-mapfile and a certificate from a CA the server does not trust
 * get the server's 530 text at the user's terminal; and the Ferry client with an expired proxy
 * (globus-url-copy refuses to send one) gets the server's 530 naming the expiry.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GsiProcessInteropTest {

    private static final int FILE_BYTES = 8 << 20;

    private Path work;
    private TestPki pki;
    private Path root;
    private Path original;
    private FerryGridFtpProcess ferry;
    /** X509_CERT_DIR and X509_USER_PROXY of the mapped user, as grid-proxy-init left them. */
    private Map<String, String> userEnvironment;

    @BeforeAll
    void start(@TempDir Path classWork) throws Exception {
        work = classWork;
        GlobusTools.assumeGsiInstalled();
        pki = TestPki.create(work.resolve("pki"), "ProcessGsi");
        GsiCredential host = pki.ca.issueHostCredential("host/localhost", pki.ca.newSetupKey());
        Path hostCert = work.resolve("hostcert.pem");
        Path hostKey = work.resolve("hostkey.pem");
        PemFiles.writeCertificates(host.chain(), hostCert);
        PemFiles.writePrivateKey(host.privateKey(), hostKey);
        Path gridMap =
                Files.writeString(work.resolve("grid-mapfile"), "\"/O=Grid/OU=ProcessGsi/CN=Mapped User\" mapped\n");
        root = Files.createDirectories(work.resolve("root"));
        original = root.resolve("data.bin");
        byte[] data = new byte[FILE_BYTES];
        new SplittableRandom(41).nextBytes(data);
        Files.write(original, data);
        ferry = FerryGridFtpProcess.startGsi(
                Launchers.fromBuild(),
                root,
                work.resolve("ferry-gridftp.log"),
                hostCert,
                hostKey,
                pki.trustDir(),
                gridMap);
        userEnvironment = gridProxyInit(pki, pki.user("Mapped User"), pki.trustDir(), "mapped");
    }

    @AfterAll
    void stop() throws Exception {
        if (ferry != null) {
            ferry.close();
        }
    }

    /** Runs the real grid-proxy-init for {@code user}; returns the environment that uses the proxy alone. */
    private Map<String, String> gridProxyInit(TestPki issuer, GsiCredential user, Path trustDir, String name)
            throws Exception {
        Path cert = work.resolve(name + "-cert.pem");
        Path key = work.resolve(name + "-key.pem");
        Path proxy = work.resolve(name + "-proxy.pem");
        PemFiles.writeCertificates(user.chain(), cert);
        PemFiles.writePrivateKey(user.privateKey(), key);
        GlobusTools.Run init = GlobusTools.run(
                Map.of(
                        "X509_USER_CERT",
                        cert.toString(),
                        "X509_USER_KEY",
                        key.toString(),
                        "X509_USER_PROXY",
                        proxy.toString(),
                        "X509_CERT_DIR",
                        issuer.trustDir().toString()),
                60,
                List.of(GlobusTools.GRID_PROXY_INIT.toString(), "-q"));
        assertThat(init.exitCode()).as(init.output()).isZero();
        // Without X509_USER_CERT/KEY the tools use the proxy and nothing else.
        return Map.of("X509_USER_PROXY", proxy.toString(), "X509_CERT_DIR", trustDir.toString());
    }

    private GlobusTools.Run urlCopy(Map<String, String> environment, String from, String to) throws Exception {
        return GlobusTools.run(environment, 120, List.of(GlobusTools.GLOBUS_URL_COPY.toString(), from, to));
    }

    @Test
    void globusUrlCopyDownloadsAndUploadsByteForByte() throws Exception {
        Path downloaded = work.resolve("downloaded.bin");
        GlobusTools.Run down = urlCopy(userEnvironment, ferry.gsiUrl() + "/data.bin", "file://" + downloaded);
        assertThat(down.exitCode()).as(down.output()).isZero();
        assertThat(downloaded).hasSameBinaryContentAs(original);

        GlobusTools.Run up = urlCopy(userEnvironment, "file://" + downloaded, ferry.gsiUrl() + "/uploaded.bin");
        assertThat(up.exitCode()).as(up.output()).isZero();
        assertThat(root.resolve("uploaded.bin")).hasSameBinaryContentAs(original);
    }

    @Test
    void aDnMissingFromTheGridMapfileSeesTheGridmapRefusal() throws Exception {
        Map<String, String> stranger = gridProxyInit(pki, pki.user("Stranger"), pki.trustDir(), "stranger");
        GlobusTools.Run r = urlCopy(stranger, ferry.gsiUrl() + "/data.bin", "file://" + work.resolve("never.bin"));
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.output())
                .contains("530 Login incorrect. : Gridmap lookup failure: Could not map"
                        + " /O=Grid/OU=ProcessGsi/CN=Stranger");
        // globus-url-copy opens its file:// destination before it connects
        assertThat(work.resolve("never.bin"))
                .satisfiesAnyOf(
                        p -> assertThat(p).doesNotExist(), p -> assertThat(p).isEmptyFile());
    }

    @Test
    void aCertificateFromAnUntrustedCaSeesTheTrustRefusal() throws Exception {
        TestPki rogue = TestPki.create(work.resolve("rogue"), "Rogue");
        // The rogue user trusts both CAs, so it accepts the server; the server trusts only its own.
        Path both = Files.createDirectories(work.resolve("both-cas"));
        for (Path dir : List.of(pki.trustDir(), rogue.trustDir())) {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path file : (Iterable<Path>) files::iterator) {
                    Files.copy(file, both.resolve(file.getFileName()));
                }
            }
        }
        Map<String, String> outsider = gridProxyInit(rogue, rogue.user("Mapped User"), both, "rogue");
        GlobusTools.Run r = urlCopy(outsider, ferry.gsiUrl() + "/data.bin", "file://" + work.resolve("never2.bin"));
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.output())
                .contains("530 GSS authentication failed: certificate chain of /O=Grid/OU=Rogue/CN=Mapped User/CN=")
                .contains("No trusted CA certificate was found for the certificate chain");
    }

    @Test
    void anExpiredProxySeesTheExpiryRefusal() throws Exception {
        GsiCredential user = pki.user(
                "Mapped User",
                Instant.now().minus(Duration.ofDays(30)),
                Instant.now().plus(Duration.ofDays(1)));
        Clock lastWeek = Clock.fixed(Instant.now().minus(Duration.ofDays(7)), ZoneOffset.UTC);
        GsiCredential expired = new BcProxyFactory(new BouncyCastleProvider(), lastWeek, new SecureRandom())
                .createProxy(user, ProxyRequest.impersonation());
        try (CanlChainValidator validator = new CanlChainValidator(pki.trustDir());
                GridFtpClient client = new GridFtpClient(
                        Duration.ofSeconds(30),
                        GsiClientSecurity.of(expired, validator, OpensslTrustDirectory.load(pki.trustDir())))) {
            assertThatThrownBy(() -> client.open(GridFtpUrl.parse(ferry.gsiUrl() + "/")))
                    .isInstanceOf(GridFtpReplyException.class)
                    .hasMessageContaining("530")
                    .hasMessageContaining("GSS authentication failed")
                    .hasMessageContaining("Certificate has expired on:")
                    .hasMessageContaining("/O=Grid/OU=ProcessGsi/CN=Mapped User/CN="
                            + expired.certificate().getSerialNumber());
        }
    }
}
