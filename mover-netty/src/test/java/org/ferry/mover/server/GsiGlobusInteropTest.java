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
 * The real globus-url-copy (with a proxy from the real grid-proxy-init) against Ferry's server
 * in GSI mode: AUTH GSSAPI/ADAT with delegation, gridmap login, wrapped commands and replies.
 * Skips without the tools, fails instead under {@code CI=true}.
 */
class GsiGlobusInteropTest {
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

    @Test
    void globusUrlCopyDownloadsAndUploadsOverGsi() throws Exception {
        byte[] data = new byte[1_000_000];
        new Random(11).nextBytes(data);
        Files.write(root.resolve("in.bin"), data);
        String base = "gsiftp://localhost:" + server.port();
        Path local = tmp.resolve("out.bin");
        List<String> cmd = new ArrayList<>(List.of("globus-url-copy", "-dbg", base + "/in.bin", "file://" + local));
        Result down = run(cmd.toArray(String[]::new));
        assertThat(down.exitCode()).as(down.output()).isZero();
        assertThat(Files.readAllBytes(local)).isEqualTo(data);
        // -dbg shows the mapped login that follows AUTH/ADAT, and every later reply unwrapped.
        assertThat(down.output()).contains("authenticating with").contains("230 User guc logged in.");

        Result up = run("globus-url-copy", "file://" + local, base + "/up.bin");
        assertThat(up.exitCode()).as(up.output()).isZero();
        assertThat(Files.readAllBytes(root.resolve("up.bin"))).isEqualTo(data);

        Result list = run("globus-url-copy", "-list", base + "/");
        assertThat(list.exitCode()).as(list.output()).isZero();
        assertThat(list.output()).contains("in.bin").contains("up.bin");
    }

    @Test
    void limitedAndLegacyProxiesAreAccepted() throws Exception {
        Files.writeString(root.resolve("small.txt"), "hello\n");
        for (String option : List.of("-limited", "-old")) {
            Result proxy = run("grid-proxy-init", "-q", option);
            assertThat(proxy.exitCode()).as(proxy.output()).isZero();
            Path local = tmp.resolve("small" + option + ".txt");
            Result r = run("globus-url-copy", "gsiftp://localhost:" + server.port() + "/small.txt", "file://" + local);
            assertThat(r.exitCode()).as(option + ": " + r.output()).isZero();
            assertThat(Files.readString(local)).isEqualTo("hello\n");
        }
    }

    @Test
    void unmappedUserSeesTheGridmapError() throws Exception {
        server.close();
        server = GridFtpServer.start(GridFtpServerConfig.loopback(root), new GsiServerSecurity(
                ca.issueHostCredential("host/localhost", ca.newSetupKey()), validator,
                OpensslTrustDirectory.load(ca.trustDirectory()), new GridMapAuthorizer(GridMap.parse("\"/O=Other/CN=x\" x\n"))));
        Result r = run("globus-url-copy", "-list", "gsiftp://localhost:" + server.port() + "/");
        assertThat(r.exitCode()).isNotZero();
        assertThat(r.output()).contains("530").contains("Gridmap lookup failure: Could not map /O=Grid/OU=GucInterop/CN=Guc User");
    }
}
