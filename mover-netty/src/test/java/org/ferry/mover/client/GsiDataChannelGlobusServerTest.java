package org.ferry.mover.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.mover.data.security.DataChannelAuthentication;
import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.ferry.mover.testing.GlobusUser;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Data channel security against the real globus-gridftp-server in GSI mode (GFD.020 "DCAU", RFC 2228 section 3 (PROT); as the Globus tools behave), with the CA, host certificate and user proxy made by Ferry (as {@link GsiGlobusServerTest}:
 * {@link GlobusServerForFerry}): the Ferry client in DCAU N, default DCAU A / PROT C, PROT S and PROT P, stream mode and four
 * streams, both ways; a third-party gsiftp transfer between globus-gridftp-server and Ferry's
 * server both ways, each authenticating data connections with its delegated credential; and
 * globus-url-copy to globus-gridftp-server throughput per protection level, printed.
 */
class GsiDataChannelGlobusServerTest {
    @RegisterExtension
    final GlobusServerForFerry globus = new GlobusServerForFerry("DcauSrv", "Dcau Client");

    @TempDir
    Path tmp;

    Path root;
    GridFtpServer ferry;
    Path ferryRoot;

    @BeforeEach
    void start() throws Exception {
        root = globus.root();
        ferryRoot = Files.createDirectory(tmp.resolve("ferry-root"));
        ferry = GridFtpServer.start(
                GridFtpServerConfig.loopback(ferryRoot),
                globus.pki()
                        .serverSecurity(globus.pki().gridMapLine("Dcau Client", GlobusGridFtpServer.USER)
                                + globus.pki().gridMapLine("Other Client", GlobusGridFtpServer.USER)));
    }

    @AfterEach
    void stop() {
        if (ferry != null) {
            ferry.close();
        }
    }

    GridFtpClient client() {
        return new GridFtpClient(Duration.ofSeconds(30), globus.clientSecurity());
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
                GridFtpSession session = client.open(globus.url())) {
            int i = 0;
            for (TransferOptions options : cells()) {
                String remote = root + "/c" + i++ + ".bin";
                assertThat(session.upload(local, remote, options, TransferListener.NONE))
                        .as(options + " up")
                        .isEqualTo(data.length);
                assertThat(Files.readAllBytes(Path.of(remote)))
                        .as(options + " up")
                        .isEqualTo(data);
                Path back = tmp.resolve("back" + i + ".bin");
                assertThat(session.download(remote, back, options, TransferListener.NONE))
                        .as(options + " down")
                        .isEqualTo(data.length);
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
        List<TransferOptions> cells = List.of(
                TransferOptions.extendedBlock(4),
                TransferOptions.extendedBlock(4).withProtection(ProtectionLevel.PRIVATE),
                TransferOptions.STREAM.withProtection(ProtectionLevel.SAFE));
        try (GridFtpClient client = client();
                GridFtpSession theirs = client.open(globus.url());
                GridFtpSession ours = client.open(GridFtpUrl.parse("gsiftp://localhost:" + ferry.port() + "/"))) {
            int i = 0;
            for (TransferOptions options : cells) {
                String cell = options + " #" + i;
                theirs.sendTo(
                        root + "/from-globus.bin", ours, "/to-ferry" + i + ".bin", options, TransferListener.NONE);
                assertThat(Files.readAllBytes(ferryRoot.resolve("to-ferry" + i + ".bin")))
                        .as("globus -> ferry " + cell)
                        .isEqualTo(data);
                ours.sendTo(
                        "/from-ferry.bin", theirs, root + "/to-globus" + i + ".bin", options, TransferListener.NONE);
                assertThat(Files.readAllBytes(root.resolve("to-globus" + i + ".bin")))
                        .as("ferry -> globus " + cell)
                        .isEqualTo(data);
                i++;
            }
        }
    }

    /**
     * What a service does when two endpoints were activated with two identities: each session logs
     * in with its own credential, every data channel is private, and each server is told the
     * other's identity (DCAU S), both directions between globus-gridftp-server and Ferry's server.
     */
    @Test
    void thirdPartyBetweenTwoIdentitiesEncryptedBothWays() throws Exception {
        byte[] data = new byte[2_000_000];
        new Random(31).nextBytes(data);
        Files.write(root.resolve("from-globus.bin"), data);
        GlobusGridFtpServer.chown(root);
        Files.write(ferryRoot.resolve("from-ferry.bin"), data);
        try (GridFtpClient client = new GridFtpClient(Duration.ofSeconds(30));
                GridFtpSession theirs = client.open(globus.url(), globus.clientSecurity());
                GridFtpSession ours = client.open(
                        GridFtpUrl.parse("gsiftp://localhost:" + ferry.port() + "/"),
                        GsiClientSecurity.of(
                                globus.pki().proxy("Other Client"),
                                globus.pki().validator(),
                                globus.pki().trust()))) {
            theirs.requireDataProtection(ProtectionLevel.PRIVATE);
            ours.requireDataProtection(ProtectionLevel.PRIVATE);
            theirs.sendTo(
                    root + "/from-globus.bin",
                    ours,
                    "/to-ferry.bin",
                    TransferOptions.extendedBlock(4),
                    TransferListener.NONE);
            ours.sendTo(
                    "/from-ferry.bin",
                    theirs,
                    root + "/to-globus.bin",
                    TransferOptions.extendedBlock(2),
                    TransferListener.NONE);
        }
        assertThat(Files.readAllBytes(ferryRoot.resolve("to-ferry.bin"))).isEqualTo(data);
        assertThat(Files.readAllBytes(root.resolve("to-globus.bin"))).isEqualTo(data);
    }

    @Test
    void printsGlobusUrlCopyThroughputPerProtectionLevel() throws Exception {
        Path guc = Path.of("/usr/bin/globus-url-copy");
        GlobusUser.require("globus-url-copy", "globus-gass-copy-progs");
        int mib = 64;
        byte[] data = new byte[mib << 20];
        new Random(2).nextBytes(data);
        Path local = tmp.resolve("big.bin");
        Files.write(local, data);
        Path proxyFile = tmp.resolve("x509up");
        PemFiles.writeCredential(globus.proxy(), proxyFile);
        StringBuilder table = new StringBuilder("globus-url-copy -> globus-gridftp-server, " + mib
                + " MiB upload, loopback (not a benchmark; see issue 4 part 7):\n");
        for (String level : List.of("", "-dcsafe", "-dcpriv")) {
            for (String p : List.of("1", "4")) {
                List<String> cmd = new ArrayList<>(List.of(guc.toString(), "-p", p));
                if (!level.isEmpty()) {
                    cmd.add(level);
                }
                cmd.addAll(List.of("file://" + local, "gsiftp://localhost:" + globus.port() + root + "/big.bin"));
                ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
                pb.environment()
                        .put("X509_CERT_DIR", globus.pki().trustDirectory().toString());
                pb.environment().put("X509_USER_PROXY", proxyFile.toString());
                long start = System.nanoTime();
                Process process = pb.start();
                String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
                assertThat(process.exitValue()).as(out).isZero();
                double seconds = (System.nanoTime() - start) / 1e9;
                String prot = level.isEmpty() ? "C" : level.equals("-dcsafe") ? "S" : "P";
                table.append(String.format(
                        "  PROT %s p=%s: %7.1f MiB/s (process start included)%n", prot, p, mib / seconds));
            }
        }
        System.out.print(table);
        assertThat(Files.size(root.resolve("big.bin"))).isEqualTo(data.length);
    }
}
