package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import java.util.List;
import java.util.Random;
import org.ferry.gsi.ca.OnlineCa;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.gsi.gridmap.GridMap;
import org.ferry.gsi.gridmap.GridMapAuthorizer;
import org.ferry.gsi.proxy.BcProxyFactory;
import org.ferry.gsi.proxy.ProxyRequest;
import org.ferry.gsi.trust.CanlChainValidator;
import org.ferry.gsi.trust.OpensslTrustDirectory;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpReplyException;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.client.GsiClientSecurity;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;
import org.ferry.mover.protocol.FileInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** AUTH GSSAPI / ADAT, gridmap login and protected (632/ENC) commands between Ferry's client and server. */
class GsiControlChannelTest {
    @TempDir
    Path tmp;
    Path root;
    OnlineCa ca;
    CanlChainValidator validator;
    OpensslTrustDirectory trust;
    GridFtpServer server;

    @BeforeEach
    void start() throws Exception {
        ca = OnlineCa.create("/O=Grid/OU=Mover/CN=Mover CA", tmp.resolve("ca"), 2048);
        validator = new CanlChainValidator(ca.trustDirectory());
        trust = OpensslTrustDirectory.load(ca.trustDirectory());
        GsiCredential host = ca.issueHostCredential("host/localhost", ca.newSetupKey());
        GridMap gridmap = GridMap.parse("\"/O=Grid/OU=Mover/CN=Mapped User\" mapped\n");
        root = Files.createDirectory(tmp.resolve("root"));
        server = GridFtpServer.start(GridFtpServerConfig.loopback(root),
                new GsiServerSecurity(host, validator, trust, new GridMapAuthorizer(gridmap)));
    }

    @AfterEach
    void stop() {
        server.close();
        validator.close();
    }

    GsiCredential proxyFor(String cn) throws Exception {
        KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
        gen.initialize(2048);
        KeyPair pair = gen.generateKeyPair();
        Instant now = Instant.now();
        var cert = ca.issuer().issue(ca.subjectFor(cn), pair.getPublic(), now.minusSeconds(300), now.plus(Duration.ofDays(1)), List.of());
        return new BcProxyFactory().createProxy(new GsiCredential(pair.getPrivate(), List.of(cert)), ProxyRequest.impersonation());
    }

    @Test
    void ferryClientAuthenticatesDelegatesAndTransfersOverAProtectedChannel() throws Exception {
        byte[] data = new byte[300_000];
        new Random(7).nextBytes(data);
        Files.write(root.resolve("f.bin"), data);
        try (GridFtpClient client = new GridFtpClient(Duration.ofSeconds(30),
                GsiClientSecurity.of(proxyFor("Mapped User"), validator, trust));
             GridFtpSession session = client.open(GridFtpUrl.parse("gsiftp://localhost:" + server.port() + "/"))) {
            assertThat(session.list("/")).extracting(FileInfo::name).contains("f.bin");
            Path local = tmp.resolve("f.copy");
            assertThat(session.download("/f.bin", local, TransferOptions.STREAM, TransferListener.NONE)).isEqualTo(data.length);
            assertThat(Files.readAllBytes(local)).isEqualTo(data);
            session.makeDirectory("/made-over-gsi");
        }
        assertThat(root.resolve("made-over-gsi")).isDirectory();
    }

    @Test
    void unmappedDnIsRefusedAtLogin() throws Exception {
        try (GridFtpClient client = new GridFtpClient(Duration.ofSeconds(30),
                GsiClientSecurity.of(proxyFor("Stranger"), validator, trust))) {
            assertThatThrownBy(() -> client.open(GridFtpUrl.parse("gsiftp://localhost:" + server.port() + "/")))
                    .isInstanceOf(GridFtpReplyException.class)
                    .hasMessageContaining("530")
                    .hasMessageContaining("Login incorrect. : Gridmap lookup failure: Could not map /O=Grid/OU=Mover/CN=Stranger");
        }
    }

    @Test
    void repliesAreWrappedAndClearCommandsRefusedAfterAuthentication() throws Exception {
        // Raw socket view of the wire: AUTH and the ADAT loop driven by hand with the GSI context.
        GsiCredential user = proxyFor("Mapped User");
        var context = org.ferry.gsi.context.GsiSecurityContext.initiator(user, validator, trust, "localhost",
                server.port(), null, org.ferry.gsi.context.DelegationMode.NONE, Duration.ofHours(1));
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
            OutputStream out = s.getOutputStream();
            assertThat(in.readLine()).startsWith("220 ");
            out.write("AUTH GSSAPI\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(in.readLine()).isEqualTo("334 Using authentication type; ADAT must follow.");
            byte[] token = context.step(null);
            String line;
            while (true) {
                out.write(("ADAT " + java.util.Base64.getEncoder().encodeToString(token) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                line = in.readLine();
                if (!line.startsWith("335 ADAT=")) {
                    break;
                }
                token = context.step(java.util.Base64.getDecoder().decode(line.substring(9)));
            }
            assertThat(line).isEqualTo("235 GSSAPI Authentication successful.");
            out.write("PWD\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(unwrap(context, in.readLine())).startsWith("533 Command protection level denied");
            byte[] wrapped = context.wrap("FEAT\r\n".getBytes(StandardCharsets.US_ASCII));
            out.write(("ENC " + java.util.Base64.getEncoder().encodeToString(wrapped) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            String first = in.readLine();
            assertThat(first).startsWith("632-");
            assertThat(unwrap(context, first)).startsWith("211-");
            String l;
            while ((l = in.readLine()).startsWith("632-")) {
                assertThat(unwrap(context, l)).doesNotStartWith("211 ");
            }
            assertThat(l).startsWith("632 ");
            assertThat(unwrap(context, l)).startsWith("211 ");
        }
    }

    private static String unwrap(org.ferry.gsi.context.SecurityContext context, String line) throws Exception {
        assertThat(line).matches("63[123][ -].*");
        return new String(context.unwrap(java.util.Base64.getDecoder().decode(line.substring(4))), StandardCharsets.UTF_8);
    }
}
