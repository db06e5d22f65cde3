package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.ferry.gsi.TestPki;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.credential.PemFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real grid-proxy-init and globus-url-copy against {@code ferry-gridftp --gsi} with the chains
 * sites have: a 4096-bit CA ({@code grid-ca-create}'s default), a 4096-bit user key, and a proxy
 * of a proxy of a proxy (grid-proxy-init run on its own output twice), whose ADAT lines are
 * longer than the 4 KiB an ordinary command may be (RFC 2228 section 3; GFD.020).
 */
class GsiLongChainInteropTest {

    @TempDir
    Path work;

    private FerryGridFtpProcess ferry;

    @AfterEach
    void stop() throws Exception {
        if (ferry != null) {
            ferry.close();
        }
    }

    @Test
    void globusUrlCopyWithAProxyThreeDeepUnderAFourKilobitCaMovesAFile() throws Exception {
        GlobusTools.assumeGsiInstalled();
        TestPki pki = TestPki.create(work.resolve("pki"), "LongChainGsi", 4096);
        GsiCredential host = pki.ca.issueHostCredential("host/localhost", pki.ca.newSetupKey());
        Path hostCert = work.resolve("hostcert.pem");
        Path hostKey = work.resolve("hostkey.pem");
        PemFiles.writeCertificates(host.chain(), hostCert);
        PemFiles.writePrivateKey(host.privateKey(), hostKey);
        Path gridMap =
                Files.writeString(work.resolve("grid-mapfile"), "\"/O=Grid/OU=LongChainGsi/CN=Deep User\" deep\n");
        Path root = Files.createDirectories(work.resolve("root"));
        byte[] data = new byte[1 << 20];
        new SplittableRandom(43).nextBytes(data);
        Files.write(root.resolve("data.bin"), data);
        ferry = FerryGridFtpProcess.startGsi(
                Launchers.fromBuild(),
                root,
                work.resolve("ferry-gridftp.log"),
                hostCert,
                hostKey,
                pki.trustDir(),
                gridMap);

        GsiCredential user = pki.user("Deep User", 4096);
        Path cert = work.resolve("usercert.pem");
        Path key = work.resolve("userkey.pem");
        PemFiles.writeCertificates(user.chain(), cert);
        PemFiles.writePrivateKey(user.privateKey(), key);
        Path proxy = null;
        for (int depth = 1; depth <= 3; depth++) {
            Path next = work.resolve("proxy-" + depth + ".pem");
            GlobusTools.Run init = GlobusTools.run(
                    Map.of("X509_CERT_DIR", pki.trustDir().toString()),
                    60,
                    List.of(
                            GlobusTools.GRID_PROXY_INIT.toString(),
                            "-q",
                            "-cert",
                            cert.toString(),
                            "-key",
                            key.toString(),
                            "-out",
                            next.toString()));
            assertThat(init.exitCode())
                    .as("grid-proxy-init at depth %d: %s", depth, init.output())
                    .isZero();
            cert = next; // the next proxy is signed by this one (its file holds key and chain)
            key = next;
            proxy = next;
        }
        List<java.security.cert.X509Certificate> chain = PemFiles.readCertificates(proxy);
        assertThat(chain).hasSize(4); // three proxies and the user
        long chainBytes = 0;
        for (java.security.cert.X509Certificate c : chain) {
            chainBytes += c.getEncoded().length;
        }
        // in base64 the chain alone is longer than the 4 KiB an ordinary command line may be
        assertThat(chainBytes * 4 / 3).isGreaterThan(4096);

        Path downloaded = work.resolve("downloaded.bin");
        GlobusTools.Run copy = GlobusTools.run(
                Map.of(
                        "X509_USER_PROXY",
                        proxy.toString(),
                        "X509_CERT_DIR",
                        pki.trustDir().toString()),
                120,
                List.of(GlobusTools.GLOBUS_URL_COPY.toString(), ferry.gsiUrl() + "/data.bin", "file://" + downloaded));
        assertThat(copy.exitCode()).as(copy.output()).isZero();
        assertThat(Files.readAllBytes(downloaded)).isEqualTo(data);
    }
}
