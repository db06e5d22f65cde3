package org.ferry.mover.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ferry.gsi.ca.OnlineCa;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.gsi.proxy.BcProxyFactory;
import org.ferry.gsi.proxy.ProxyRequest;
import org.ferry.gsi.trust.CanlChainValidator;
import org.ferry.gsi.trust.OpensslTrustDirectory;
import org.ferry.mover.protocol.FileInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ferry's client (GSI: AUTH GSSAPI/ADAT with limited delegation, ENC commands, 632 replies)
 * against the real globus-gridftp-server in GSI mode, host certificate and user proxy from
 * Ferry's OnlineCa and ProxyFactory, grid-mapfile mapping to the test's Unix user.
 */
class GsiGlobusServerTest {
    private static final Pattern LISTENING = Pattern.compile("Server listening at .*:(\\d+)");

    @TempDir
    Path tmp;
    Path root;
    Process server;
    int port;
    CanlChainValidator validator;
    OpensslTrustDirectory trust;
    GsiCredential proxy;
    OnlineCa ca;

    @BeforeEach
    void start() throws Exception {
        boolean available = GlobusGridFtpServer.available();
        if (!available && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("globus-gridftp-server missing (apt-get install -y globus-gridftp-server-progs); CI=true");
        }
        Assumptions.assumeTrue(available, "globus-gridftp-server not installed: apt-get install -y globus-gridftp-server-progs");
        Assumptions.assumeTrue(GlobusGridFtpServer.runningAsRoot(), "GSI mode setuids to the mapped user: needs root");
        ca = OnlineCa.create("/O=Grid/OU=GlobusSrv/CN=GlobusSrv CA", tmp.resolve("ca"), 2048);
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        validator = new CanlChainValidator(ca.trustDirectory());
        trust = OpensslTrustDirectory.load(ca.trustDirectory());
        GsiCredential host = ca.issueHostCredential("host/localhost", ca.newSetupKey());
        PemFiles.writeCertificates(host.chain(), tmp.resolve("hostcert.pem"));
        PemFiles.writePrivateKey(host.privateKey(), tmp.resolve("hostkey.pem"));
        KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
        gen.initialize(2048);
        KeyPair pair = gen.generateKeyPair();
        Instant now = Instant.now();
        var userCert = ca.issuer().issue(ca.subjectFor("Ferry Client"), pair.getPublic(), now.minusSeconds(300),
                now.plus(Duration.ofDays(1)), List.of());
        proxy = new BcProxyFactory().createProxy(new GsiCredential(pair.getPrivate(), List.of(userCert)), ProxyRequest.impersonation());
        Files.writeString(tmp.resolve("grid-mapfile"), "\"/O=Grid/OU=GlobusSrv/CN=Ferry Client\" " + GlobusGridFtpServer.USER + "\n");

        root = GlobusGridFtpServer.createRoot();
        ProcessBuilder pb = new ProcessBuilder("/usr/sbin/globus-gridftp-server", "-p", "0", "-control-interface", "127.0.0.1",
                "-data-interface", "127.0.0.1", "-d", "error", "-disable-usage-stats").redirectErrorStream(true);
        pb.environment().put("X509_CERT_DIR", ca.trustDirectory().toString());
        pb.environment().put("X509_USER_CERT", tmp.resolve("hostcert.pem").toString());
        pb.environment().put("X509_USER_KEY", tmp.resolve("hostkey.pem").toString());
        pb.environment().put("GRIDMAP", tmp.resolve("grid-mapfile").toString());
        server = pb.start();
        CompletableFuture<Integer> listening = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) {
                        listening.complete(Integer.parseInt(m.group(1)));
                    } else {
                        System.out.println("[globus-gridftp-server] " + line);
                    }
                }
            } catch (java.io.IOException e) {
                listening.completeExceptionally(e);
            }
            listening.completeExceptionally(new java.io.IOException("server exited"));
        });
        reader.setDaemon(true);
        reader.start();
        port = listening.get(20, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.destroy();
        }
        if (validator != null) {
            validator.close();
        }
        GlobusGridFtpServer.deleteTree(root);
    }

    @Test
    void ferryClientTalksGsiToGlobusServer() throws Exception {
        byte[] data = new byte[500_000];
        new Random(3).nextBytes(data);
        Files.write(root.resolve("g.bin"), data);
        GlobusGridFtpServer.chown(root);
        try (GridFtpClient client = new GridFtpClient(Duration.ofSeconds(30), GsiClientSecurity.of(proxy, validator, trust));
             GridFtpSession session = client.open(GridFtpUrl.parse("gsiftp://localhost:" + port + "/"))) {
            assertThat(session.list(root.toString())).extracting(FileInfo::name).contains("g.bin");
            Path local = tmp.resolve("g.copy");
            assertThat(session.download(root + "/g.bin", local, TransferOptions.STREAM, TransferListener.NONE)).isEqualTo(data.length);
            assertThat(Files.readAllBytes(local)).isEqualTo(data);
            assertThat(session.upload(local, root + "/up.bin", TransferOptions.extendedBlock(2), TransferListener.NONE))
                    .isEqualTo(data.length);
        }
        assertThat(Files.readAllBytes(root.resolve("up.bin"))).isEqualTo(data);
    }

    @Test
    void ferryClientRefusesAGlobusServerWithAnotherName() throws Exception {
        GsiClientSecurity security = new GsiClientSecurity(proxy, validator, trust, org.ferry.gsi.context.DelegationMode.LIMITED,
                Duration.ofHours(1), "/O=Grid/OU=GlobusSrv/CN=host/not-this-one");
        try (GridFtpClient client = new GridFtpClient(Duration.ofSeconds(30), security)) {
            assertThatThrownBy(() -> client.open(GridFtpUrl.parse("gsiftp://localhost:" + port + "/")))
                    .hasMessageContaining("GSI authentication with localhost failed")
                    .hasMessageContaining("peer /O=Grid/OU=GlobusSrv/CN=host/localhost is not the expected identity");
        }
    }
}
