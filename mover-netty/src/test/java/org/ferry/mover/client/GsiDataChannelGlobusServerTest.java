package org.ferry.mover.client;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ferry.gsi.ca.OnlineCa;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.gsi.gridmap.GridMap;
import org.ferry.gsi.gridmap.GridMapAuthorizer;
import org.ferry.gsi.proxy.BcProxyFactory;
import org.ferry.gsi.proxy.ProxyRequest;
import org.ferry.gsi.trust.CanlChainValidator;
import org.ferry.gsi.trust.OpensslTrustDirectory;
import org.ferry.mover.data.security.DataChannelAuthentication;
import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.GridFtpServerConfig;
import org.ferry.mover.server.GsiServerSecurity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Data channel security against the real globus-gridftp-server in GSI mode (gridftp-protocol.md
 * 4.5, 7b), with the CA, host certificate and user proxy made by Ferry (as {@link GsiGlobusServerTest}):
 * the Ferry client in DCAU N, default DCAU A / PROT C, PROT S and PROT P, stream mode and four
 * streams, both ways; a third-party gsiftp transfer between globus-gridftp-server and Ferry's
 * server both ways, each authenticating data connections with its delegated credential; and
 * globus-url-copy to globus-gridftp-server throughput per protection level, printed.
 */
class GsiDataChannelGlobusServerTest {
    private static final Pattern LISTENING = Pattern.compile("Server listening at .*:(\\d+)");

    @TempDir
    Path tmp;
    Path root;
    Path ferryRoot;
    Process server;
    int port;
    CanlChainValidator validator;
    OpensslTrustDirectory trust;
    GsiCredential proxy;
    OnlineCa ca;
    GridFtpServer ferry;

    @BeforeEach
    void start() throws Exception {
        boolean available = GlobusGridFtpServer.available();
        if (!available && "true".equals(System.getenv("CI"))) {
            throw new AssertionError("globus-gridftp-server missing (apt-get install -y globus-gridftp-server-progs); CI=true");
        }
        Assumptions.assumeTrue(available, "globus-gridftp-server not installed: apt-get install -y globus-gridftp-server-progs");
        Assumptions.assumeTrue(GlobusGridFtpServer.runningAsRoot(), "GSI mode setuids to the mapped user: needs root");
        ca = OnlineCa.create("/O=Grid/OU=DcauSrv/CN=DcauSrv CA", tmp.resolve("ca"), 2048);
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
        var userCert = ca.issuer().issue(ca.subjectFor("Dcau Client"), pair.getPublic(), now.minusSeconds(300),
                now.plus(Duration.ofDays(1)), List.of());
        proxy = new BcProxyFactory().createProxy(new GsiCredential(pair.getPrivate(), List.of(userCert)), ProxyRequest.impersonation());
        String mapping = "\"/O=Grid/OU=DcauSrv/CN=Dcau Client\" " + GlobusGridFtpServer.USER + "\n";
        Files.writeString(tmp.resolve("grid-mapfile"), mapping);

        root = GlobusGridFtpServer.createRoot();
        ProcessBuilder pb = new ProcessBuilder("/usr/sbin/globus-gridftp-server", "-p", "0", "-control-interface", "127.0.0.1",
                "-data-interface", "127.0.0.1", "-d", "error", "-disable-usage-stats").redirectErrorStream(true);
        pb.environment().put("X509_CERT_DIR", ca.trustDirectory().toString());
        pb.environment().put("X509_USER_CERT", tmp.resolve("hostcert.pem").toString());
        pb.environment().put("X509_USER_KEY", tmp.resolve("hostkey.pem").toString());
        pb.environment().put("GRIDMAP", tmp.resolve("grid-mapfile").toString());
        server = pb.start();
        port = scrapePort(server);

        ferryRoot = Files.createDirectory(tmp.resolve("ferry-root"));
        ferry = GridFtpServer.start(GridFtpServerConfig.loopback(ferryRoot),
                new GsiServerSecurity(host, validator, trust, new GridMapAuthorizer(GridMap.parse(mapping))));
    }

    private static int scrapePort(Process process) throws Exception {
        CompletableFuture<Integer> listening = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
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
        return listening.get(20, TimeUnit.SECONDS);
    }

    @AfterEach
    void stop() {
        if (ferry != null) {
            ferry.close();
        }
        if (server != null) {
            server.destroy();
        }
        if (validator != null) {
            validator.close();
        }
        GlobusGridFtpServer.deleteTree(root);
    }

    GridFtpClient client() {
        return new GridFtpClient(Duration.ofSeconds(30), GsiClientSecurity.of(proxy, validator, trust));
    }

    static List<TransferOptions> cells() {
        return List.of(
                TransferOptions.extendedBlock(4).withDataChannelAuthentication(DataChannelAuthentication.NONE),
                TransferOptions.STREAM,
                TransferOptions.extendedBlock(4),
                TransferOptions.extendedBlock(4).withProtection(ProtectionLevel.SAFE),
                TransferOptions.STREAM.withProtection(ProtectionLevel.PRIVATE),
                TransferOptions.extendedBlock(4).withProtection(ProtectionLevel.PRIVATE));
    }

    @Test
    void ferryClientInEveryModeAgainstGlobusServer() throws Exception {
        byte[] data = new byte[3_000_000];
        new Random(23).nextBytes(data);
        Path local = tmp.resolve("local.bin");
        Files.write(local, data);
        try (GridFtpClient client = client();
             GridFtpSession session = client.open(GridFtpUrl.parse("gsiftp://localhost:" + port + "/"))) {
            int i = 0;
            for (TransferOptions options : cells()) {
                String remote = root + "/c" + i++ + ".bin";
                assertThat(session.upload(local, remote, options, TransferListener.NONE)).as(options + " up").isEqualTo(data.length);
                assertThat(Files.readAllBytes(Path.of(remote))).as(options + " up").isEqualTo(data);
                Path back = tmp.resolve("back" + i + ".bin");
                assertThat(session.download(remote, back, options, TransferListener.NONE)).as(options + " down").isEqualTo(data.length);
                assertThat(Files.readAllBytes(back)).as(options + " down").isEqualTo(data);
            }
        }
    }

    @Test
    void thirdPartyBetweenGlobusAndFerryServers() throws Exception {
        byte[] data = new byte[3_000_000];
        new Random(29).nextBytes(data);
        Files.write(root.resolve("from-globus.bin"), data);
        GlobusGridFtpServer.chown(root);
        Files.write(ferryRoot.resolve("from-ferry.bin"), data);
        List<TransferOptions> cells = List.of(TransferOptions.extendedBlock(4),
                TransferOptions.extendedBlock(4).withProtection(ProtectionLevel.PRIVATE),
                TransferOptions.STREAM.withProtection(ProtectionLevel.SAFE));
        try (GridFtpClient client = client();
             GridFtpSession globus = client.open(GridFtpUrl.parse("gsiftp://localhost:" + port + "/"));
             GridFtpSession ours = client.open(GridFtpUrl.parse("gsiftp://localhost:" + ferry.port() + "/"))) {
            int i = 0;
            for (TransferOptions options : cells) {
                String cell = options + " #" + i;
                globus.sendTo(root + "/from-globus.bin", ours, "/to-ferry" + i + ".bin", options, TransferListener.NONE);
                assertThat(Files.readAllBytes(ferryRoot.resolve("to-ferry" + i + ".bin"))).as("globus -> ferry " + cell).isEqualTo(data);
                ours.sendTo("/from-ferry.bin", globus, root + "/to-globus" + i + ".bin", options, TransferListener.NONE);
                assertThat(Files.readAllBytes(root.resolve("to-globus" + i + ".bin"))).as("ferry -> globus " + cell).isEqualTo(data);
                i++;
            }
        }
    }

    @Test
    void printsGlobusUrlCopyThroughputPerProtectionLevel() throws Exception {
        Path guc = Path.of("/usr/bin/globus-url-copy");
        Assumptions.assumeTrue(Files.isExecutable(guc), "globus-url-copy not installed (globus-gass-copy-progs)");
        int mib = 64;
        byte[] data = new byte[mib << 20];
        new Random(2).nextBytes(data);
        Path local = tmp.resolve("big.bin");
        Files.write(local, data);
        Path proxyFile = tmp.resolve("x509up");
        PemFiles.writeCredential(proxy, proxyFile);
        StringBuilder table = new StringBuilder("globus-url-copy -> globus-gridftp-server, " + mib
                + " MiB upload, loopback (not a benchmark; see issue 4 part 7):\n");
        for (String level : List.of("", "-dcsafe", "-dcpriv")) {
            for (String p : List.of("1", "4")) {
                List<String> cmd = new ArrayList<>(List.of(guc.toString(), "-p", p));
                if (!level.isEmpty()) {
                    cmd.add(level);
                }
                cmd.addAll(List.of("file://" + local, "gsiftp://localhost:" + port + root + "/big.bin"));
                ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
                pb.environment().put("X509_CERT_DIR", ca.trustDirectory().toString());
                pb.environment().put("X509_USER_PROXY", proxyFile.toString());
                long start = System.nanoTime();
                Process process = pb.start();
                String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
                assertThat(process.exitValue()).as(out).isZero();
                double seconds = (System.nanoTime() - start) / 1e9;
                String prot = level.isEmpty() ? "C" : level.equals("-dcsafe") ? "S" : "P";
                table.append(String.format("  PROT %s p=%s: %7.1f MiB/s (process start included)%n", prot, p, mib / seconds));
            }
        }
        System.out.print(table);
        assertThat(Files.size(root.resolve("big.bin"))).isEqualTo(data.length);
    }
}
