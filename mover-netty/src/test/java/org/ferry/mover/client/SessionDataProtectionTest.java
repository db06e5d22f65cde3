package org.ferry.mover.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.ferry.gsi.credential.GsiCredential;
import org.ferry.mover.data.security.ProtectionLevel;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.ferry.mover.testing.FerryGsiServer;
import org.ferry.mover.testing.ServerCommandLog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a service needs from the client: each session logs in with its own credential
 * ({@link GridFtpClient#open(GridFtpUrl, GsiClientSecurity)}), a session can be made to protect
 * every data channel ({@link GridFtpSession#requireDataProtection}: {@code encrypt_data}), and a
 * third-party transfer between sessions of two identities tells each server the other's
 * ({@code DCAU S}, GFD.020), since {@code DCAU A} would refuse the peer. Checked on two Ferry
 * servers by the bytes that arrive and by the commands the servers received.
 */
class SessionDataProtectionTest {

    @TempDir
    Path tmp;

    FerryGsiServer first;
    GridFtpServer second;
    Path secondRoot;
    GsiCredential alice;
    GsiCredential bob;

    @BeforeEach
    void start() throws Exception {
        first = FerryGsiServer.start(tmp.resolve("first"), "Floor", Map.of("Alice", "alice", "Bob", "bob"));
        secondRoot = Files.createDirectories(tmp.resolve("second-root"));
        second = GridFtpServer.start(
                GridFtpServerConfig.loopback(secondRoot),
                first.pki()
                        .serverSecurity(first.pki().gridMapLine("Alice", "alice")
                                + first.pki().gridMapLine("Bob", "bob")));
        alice = first.pki().proxy("Alice");
        bob = first.pki().proxy("Bob");
    }

    @AfterEach
    void stop() {
        if (second != null) {
            second.close();
        }
        first.close();
    }

    private GridFtpUrl secondUrl() {
        return GridFtpUrl.parse("gsiftp://localhost:" + second.port() + "/");
    }

    @Test
    void everyDataChannelOfAPrivateSessionIsPrivateAndIdentitiesMeetWithDcauS() throws Exception {
        byte[] data = new byte[1_500_000];
        new Random(13).nextBytes(data);
        Path local = tmp.resolve("local.bin");
        Files.write(local, data);
        try (ServerCommandLog log = ServerCommandLog.open();
                GridFtpClient client = new GridFtpClient(Duration.ofSeconds(30));
                GridFtpSession asAlice = client.open(first.url(), first.clientSecurity(alice));
                GridFtpSession asBob = client.open(secondUrl(), first.clientSecurity(bob))) {
            asAlice.requireDataProtection(ProtectionLevel.PRIVATE);
            asBob.requireDataProtection(ProtectionLevel.PRIVATE);
            // transfers that ask for nothing (PROT C by default) still go PROT P
            asAlice.upload(local, "/up.bin", TransferOptions.extendedBlock(2), TransferListener.NONE);
            assertThat(asAlice.list("/")).extracting(f -> f.name()).contains("up.bin");
            asAlice.sendTo("/up.bin", asBob, "/third.bin", TransferOptions.extendedBlock(4), TransferListener.NONE);
            asBob.sendTo("/third.bin", asAlice, "/back.bin", TransferOptions.STREAM, TransferListener.NONE);
            List<String> commands = log.commands();
            assertThat(commands).contains("PROT P").doesNotContain("PROT C", "PROT S");
            assertThat(commands).contains("DCAU S " + bob.identity(), "DCAU S " + alice.identity());
        }
        assertThat(Files.readAllBytes(secondRoot.resolve("third.bin"))).isEqualTo(data);
        assertThat(Files.readAllBytes(first.root().resolve("back.bin"))).isEqualTo(data);
    }

    @Test
    void oneIdentityOnBothSidesKeepsDcauA() throws Exception {
        Files.write(first.root().resolve("a.bin"), new byte[] {1, 2, 3});
        try (ServerCommandLog log = ServerCommandLog.open();
                GridFtpClient client = new GridFtpClient(Duration.ofSeconds(30));
                GridFtpSession source = client.open(first.url(), first.clientSecurity(alice));
                GridFtpSession destination = client.open(secondUrl(), first.clientSecurity(alice))) {
            source.sendTo("/a.bin", destination, "/a.bin", TransferOptions.extendedBlock(2), TransferListener.NONE);
            assertThat(log.commands()).noneMatch(c -> c.startsWith("DCAU S"));
        }
        assertThat(Files.readAllBytes(secondRoot.resolve("a.bin"))).containsExactly(1, 2, 3);
    }

    @Test
    void aClearTextSessionCannotPromisePrivacy() throws Exception {
        try (GridFtpServer plain = GridFtpServer.start(
                        GridFtpServerConfig.loopback(secondRoot).withAnonymousAllowed(true));
                GridFtpClient client = new GridFtpClient(Duration.ofSeconds(30));
                GridFtpSession session = client.open(GridFtpUrl.parse("ftp://127.0.0.1:" + plain.port() + "/"))) {
            assertThatThrownBy(() -> session.requireDataProtection(ProtectionLevel.PRIVATE))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("needs a gsiftp:// session");
            session.requireDataProtection(ProtectionLevel.CLEAR);
        }
    }

    @Test
    void gsiftpWithoutACredentialSaysSo() {
        try (GridFtpClient client = new GridFtpClient(Duration.ofSeconds(30))) {
            assertThatThrownBy(() -> client.open(first.url(), null))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("gsiftp:// needs a GSI credential");
        }
    }
}
