package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.ferry.gsi.ca.OnlineCa;
import org.ferry.gsi.context.DelegationMode;
import org.ferry.gsi.context.GsiSecurityContext;
import org.ferry.gsi.context.SecurityContext;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.gridmap.GridMap;
import org.ferry.gsi.gridmap.GridMapAuthorizer;
import org.ferry.gsi.proxy.BcProxyFactory;
import org.ferry.gsi.proxy.ProxyRequest;
import org.ferry.gsi.trust.CanlChainValidator;
import org.ferry.gsi.trust.OpensslTrustDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wire rules of DCAU, PROT and PBSZ (gridftp-protocol.md 2.11) on a GSI control channel driven
 * by hand: replies, errors, FEAT, and DCAU A refused without a delegated credential.
 */
class DataProtectionCommandsTest {
    @TempDir
    Path tmp;
    OnlineCa ca;
    CanlChainValidator validator;
    OpensslTrustDirectory trust;
    GridFtpServer server;
    GsiCredential user;

    @BeforeEach
    void start() throws Exception {
        ca = OnlineCa.create("/O=Grid/OU=Prot/CN=Prot CA", tmp.resolve("ca"), 2048);
        validator = new CanlChainValidator(ca.trustDirectory());
        trust = OpensslTrustDirectory.load(ca.trustDirectory());
        GsiCredential host = ca.issueHostCredential("host/localhost", ca.newSetupKey());
        server = GridFtpServer.start(GridFtpServerConfig.loopback(Files.createDirectory(tmp.resolve("root"))),
                new GsiServerSecurity(host, validator, trust,
                        new GridMapAuthorizer(GridMap.parse("\"/O=Grid/OU=Prot/CN=Prot User\" prot\n"))));
        KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
        gen.initialize(2048);
        KeyPair pair = gen.generateKeyPair();
        Instant now = Instant.now();
        var cert = ca.issuer().issue(ca.subjectFor("Prot User"), pair.getPublic(), now.minusSeconds(300),
                now.plus(Duration.ofDays(1)), List.of());
        user = new BcProxyFactory().createProxy(new GsiCredential(pair.getPrivate(), List.of(cert)), ProxyRequest.impersonation());
    }

    @AfterEach
    void stop() {
        server.close();
        validator.close();
    }

    /** A logged-in raw GSI control session. */
    final class Session implements AutoCloseable {
        final Socket socket;
        final BufferedReader in;
        final OutputStream out;
        final SecurityContext context;

        Session(DelegationMode delegation) throws Exception {
            socket = new Socket("127.0.0.1", server.port());
            in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
            out = socket.getOutputStream();
            context = GsiSecurityContext.initiator(user, validator, trust, "localhost", server.port(), null,
                    delegation, Duration.ofHours(1));
            assertThat(in.readLine()).startsWith("220 ");
            write("AUTH GSSAPI");
            assertThat(in.readLine()).startsWith("334 ");
            byte[] token = context.step(null);
            String line;
            while (true) {
                write("ADAT " + Base64.getEncoder().encodeToString(token));
                line = in.readLine();
                if (!line.startsWith("335 ADAT=")) {
                    break;
                }
                token = context.step(Base64.getDecoder().decode(line.substring(9)));
            }
            assertThat(line).startsWith("235 ");
            assertThat(command("USER :globus-mapping:")).startsWith("331");
            assertThat(command("PASS dummy")).startsWith("230");
        }

        void write(String line) throws Exception {
            out.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
        }

        /** @return the unwrapped reply, lines joined with CRLF */
        String command(String command) throws Exception {
            byte[] wrapped = context.wrap((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
            write("ENC " + Base64.getEncoder().encodeToString(wrapped));
            List<String> lines = new ArrayList<>();
            while (true) {
                String line = in.readLine();
                lines.add(new String(context.unwrap(Base64.getDecoder().decode(line.substring(4))), StandardCharsets.UTF_8).strip());
                if (line.charAt(3) == ' ') {
                    return String.join("\r\n", lines);
                }
            }
        }

        @Override
        public void close() throws Exception {
            socket.close();
        }
    }

    @Test
    void dcauProtAndPbszRepliesFollowGlobus() throws Exception {
        try (Session s = new Session(DelegationMode.LIMITED)) {
            assertThat(s.command("FEAT")).contains("\r\nDCAU\r\n");
            assertThat(s.command("DCAU A")).isEqualTo("200 DCAU A.");
            assertThat(s.command("DCAU N")).isEqualTo("200 DCAU N.");
            assertThat(s.command("DCAU S /O=Grid/OU=Prot/CN=Prot User")).isEqualTo("200 DCAU S.");
            assertThat(s.command("DCAU S")).isEqualTo("501 DCAU S expected subject.");
            assertThat(s.command("DCAU X")).isEqualTo("504 Bad DCAU mode.");
            assertThat(s.command("PBSZ 1048576")).isEqualTo("200 PBSZ=1048576");
            assertThat(s.command("PBSZ 4294967296")).isEqualTo("501 Bad value for PBSZ: 4294967296");
            assertThat(s.command("PBSZ x")).isEqualTo("501 Bad value for PBSZ: x");
            for (String level : List.of("C", "S", "P", "p")) {
                assertThat(s.command("PROT " + level)).isEqualTo("200 Protection level set to " + level.toUpperCase() + ".");
            }
            assertThat(s.command("PROT E")).isEqualTo("536 E protection level not supported.");
        }
    }

    @Test
    void dcauANeedsADelegatedCredential() throws Exception {
        try (Session s = new Session(DelegationMode.NONE)) {
            assertThat(s.command("DCAU A")).startsWith("504 DCAU A needs a delegated credential");
            assertThat(s.command("DCAU N")).isEqualTo("200 DCAU N.");
        }
    }
}
