package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.ferry.gsi.ca.OnlineCa;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.credential.PemFiles;
import org.ferry.gsi.gridmap.GridMap;
import org.ferry.gsi.gridmap.GridMapAuthorizer;
import org.ferry.gsi.trust.CanlChainValidator;
import org.ferry.gsi.trust.OpensslTrustDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Data channel security with the real globus-url-copy against Ferry's server (gridftp-protocol.md
 * 2.11, 4.5): {@code -nodcau} (DCAU N), default DCAU A with PROT C (GSI handshake, then clear
 * bytes), {@code -dcsafe} (PROT S) and {@code -dcpriv} (PROT P: TLS on every data connection), in
 * stream mode and with {@code -p 4} both ways; bytes compared. Reuses the CA, proxy and server
 * set-up of {@link GsiGlobusInteropTest}.
 */
class GsiDataChannelGlobusTest {
    @TempDir
    Path tmp;
    Path root;
    OnlineCa ca;
    CanlChainValidator validator;
    GridFtpServer server;
    Map<String, String> env;

    static void require(String tool, String pkg) {
        boolean found = Files.isExecutable(Path.of("/usr/bin", tool)) || Files.isExecutable(Path.of("/usr/sbin", tool));
        String message = tool + " not found: install it with 'apt-get install -y " + pkg + "'";
        if (!found && "true".equals(System.getenv("CI"))) {
            fail(message + " (CI=true: interop tests must not be skipped)");
        }
        Assumptions.assumeTrue(found, message);
    }

    record Result(int exitCode, String output) { }

    Result run(String... command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("timed out: " + List.of(command));
        }
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    @BeforeEach
    void start() throws Exception {
        require("globus-url-copy", "globus-gass-copy-progs");
        require("grid-proxy-init", "globus-proxy-utils");
        ca = OnlineCa.create("/O=Grid/OU=GucInterop/CN=GucInterop CA", tmp.resolve("ca"), 2048);
        validator = new CanlChainValidator(ca.trustDirectory());
        GsiCredential host = ca.issueHostCredential("host/localhost", ca.newSetupKey());
        KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
        gen.initialize(2048);
        KeyPair pair = gen.generateKeyPair();
        Instant now = Instant.now();
        var userCert = ca.issuer().issue(ca.subjectFor("Guc User"), pair.getPublic(), now.minusSeconds(300),
                now.plus(Duration.ofDays(1)), List.of());
        PemFiles.writeCertificates(List.of(userCert), tmp.resolve("usercert.pem"));
        PemFiles.writePrivateKey(pair.getPrivate(), tmp.resolve("userkey.pem"));
        env = new HashMap<>(Map.of("X509_CERT_DIR", ca.trustDirectory().toString(),
                "X509_USER_CERT", tmp.resolve("usercert.pem").toString(),
                "X509_USER_KEY", tmp.resolve("userkey.pem").toString(),
                "X509_USER_PROXY", tmp.resolve("proxy").toString()));
        Result proxy = run("grid-proxy-init", "-q");
        assertThat(proxy.exitCode()).as(proxy.output()).isZero();

        root = Files.createDirectory(tmp.resolve("root"));
        GridMap gridmap = GridMap.parse("\"/O=Grid/OU=GucInterop/CN=Guc User\" guc\n");
        server = GridFtpServer.start(GridFtpServerConfig.loopback(root), new GsiServerSecurity(host, validator,
                OpensslTrustDirectory.load(ca.trustDirectory()), new GridMapAuthorizer(gridmap)));
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        if (validator != null) {
            validator.close();
        }
    }


    private static final List<String> MODES = List.of("-nodcau", "", "-dcsafe", "-dcpriv");

    @Test
    void globusUrlCopyInEveryDcauAndProtMode() throws Exception {
        byte[] data = new byte[3_000_000];
        new Random(17).nextBytes(data);
        Files.write(root.resolve("in.bin"), data);
        String base = "gsiftp://localhost:" + server.port();
        for (String mode : MODES) {
            for (String parallel : List.of("", "4")) {
                String cell = "[" + (mode.isEmpty() ? "default" : mode) + (parallel.isEmpty() ? " stream" : " -p " + parallel) + "]";
                Path local = tmp.resolve("out" + mode + parallel + ".bin");
                Result down = run(command(mode, parallel, base + "/in.bin", "file://" + local));
                assertThat(down.exitCode()).as(cell + " download: " + down.output()).isZero();
                assertThat(Files.readAllBytes(local)).as(cell + " download").isEqualTo(data);
                assertThat(down.output()).as(cell).contains(expectedReply(mode));

                String remote = "up" + mode + parallel + ".bin";
                Result up = run(command(mode, parallel, "file://" + local, base + "/" + remote));
                assertThat(up.exitCode()).as(cell + " upload: " + up.output()).isZero();
                assertThat(Files.readAllBytes(root.resolve(remote))).as(cell + " upload").isEqualTo(data);
            }
        }
    }

    @Test
    void featAdvertisesDcau() throws Exception {
        Files.writeString(root.resolve("f.txt"), "x");
        Result r = run("globus-url-copy", "-dbg", "gsiftp://localhost:" + server.port() + "/f.txt",
                "file://" + tmp.resolve("f.txt"));
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.output()).contains(" DCAU");
    }

    private static String expectedReply(String mode) {
        return switch (mode) {
            case "-nodcau" -> "200 DCAU N.";
            case "-dcsafe" -> "200 Protection level set to S.";
            case "-dcpriv" -> "200 Protection level set to P.";
            default -> "Transfer Complete";
        };
    }

    private static String[] command(String mode, String parallel, String from, String to) {
        List<String> cmd = new ArrayList<>(List.of("globus-url-copy", "-dbg"));
        if (!mode.isEmpty()) {
            cmd.add(mode);
        }
        if (!parallel.isEmpty()) {
            cmd.addAll(List.of("-p", parallel));
        }
        cmd.add(from);
        cmd.add(to);
        return cmd.toArray(String[]::new);
    }
}
