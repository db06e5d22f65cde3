package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import org.ferry.gsi.context.DelegationMode;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpReplyException;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;
import org.ferry.mover.protocol.FileInfo;
import org.ferry.mover.testing.FerryGsiServer;
import org.ferry.mover.testing.RawGsiSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** AUTH GSSAPI / ADAT, gridmap login and protected (632/ENC) commands between Ferry's client and server. */
class GsiControlChannelTest {
    @TempDir
    Path tmp;
    FerryGsiServer ferry;

    @BeforeEach
    void start() throws Exception {
        ferry = FerryGsiServer.start(tmp, "Mover", Map.of("Mapped User", "mapped"));
    }

    @AfterEach
    void stop() {
        ferry.close();
    }

    GridFtpClient client(String cn) throws Exception {
        return new GridFtpClient(Duration.ofSeconds(30), ferry.clientSecurity(ferry.pki().proxy(cn)));
    }

    @Test
    void ferryClientAuthenticatesDelegatesAndTransfersOverAProtectedChannel() throws Exception {
        byte[] data = new byte[300_000];
        new Random(7).nextBytes(data);
        Files.write(ferry.root().resolve("f.bin"), data);
        try (GridFtpClient client = client("Mapped User");
             GridFtpSession session = client.open(ferry.url())) {
            assertThat(session.list("/")).extracting(FileInfo::name).contains("f.bin");
            Path local = tmp.resolve("f.copy");
            assertThat(session.download("/f.bin", local, TransferOptions.STREAM, TransferListener.NONE)).isEqualTo(data.length);
            assertThat(Files.readAllBytes(local)).isEqualTo(data);
            session.makeDirectory("/made-over-gsi");
        }
        assertThat(ferry.root().resolve("made-over-gsi")).isDirectory();
    }

    @Test
    void unmappedDnIsRefusedAtLogin() throws Exception {
        try (GridFtpClient client = client("Stranger")) {
            assertThatThrownBy(() -> client.open(ferry.url()))
                    .isInstanceOf(GridFtpReplyException.class)
                    .hasMessageContaining("530")
                    .hasMessageContaining("Login incorrect. : Gridmap lookup failure: Could not map /O=Grid/OU=Mover/CN=Stranger");
        }
    }

    @Test
    void repliesAreWrappedAndClearCommandsRefusedAfterAuthentication() throws Exception {
        try (RawGsiSession s = new RawGsiSession(ferry.port(), ferry.pki().proxy("Mapped User"), ferry.pki(),
                DelegationMode.NONE)) {
            assertThat(s.auth()).isEqualTo("334 Using authentication type; ADAT must follow.");
            String line;
            do {
                line = s.adat();
            } while (line.startsWith("335 ADAT="));
            assertThat(line).isEqualTo("235 GSSAPI Authentication successful.");
            s.send("PWD");
            assertThat(s.unwrap(s.readLine())).startsWith("533 Command protection level denied");
            s.send(s.protect("FEAT"));
            String first = s.readLine();
            assertThat(first).startsWith("632-");
            assertThat(s.unwrap(first)).startsWith("211-");
            String l;
            while ((l = s.readLine()).startsWith("632-")) {
                assertThat(s.unwrap(l)).doesNotStartWith("211 ");
            }
            assertThat(l).startsWith("632 ");
            assertThat(s.unwrap(l)).startsWith("211 ");
        }
    }
}
