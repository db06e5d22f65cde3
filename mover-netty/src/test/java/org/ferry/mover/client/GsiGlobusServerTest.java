package org.ferry.mover.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import org.ferry.mover.protocol.FileInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ferry's client (GSI: AUTH GSSAPI/ADAT with limited delegation, ENC commands, 632 replies)
 * against the real globus-gridftp-server in GSI mode, host certificate and user proxy from
 * Ferry's OnlineCa and ProxyFactory, grid-mapfile mapping to the test's Unix user.
 */
class GsiGlobusServerTest {
    @RegisterExtension
    final GlobusServerForFerry globus = new GlobusServerForFerry("GlobusSrv", "Ferry Client");

    @TempDir
    Path tmp;

    @Test
    void ferryClientTalksGsiToGlobusServer() throws Exception {
        byte[] data = new byte[500_000];
        new Random(3).nextBytes(data);
        Files.write(globus.root().resolve("g.bin"), data);
        GlobusGridFtpServer.chown(globus.root());
        try (GridFtpClient client = new GridFtpClient(Duration.ofSeconds(30), globus.clientSecurity());
                GridFtpSession session = client.open(globus.url())) {
            assertThat(session.list(globus.root().toString()))
                    .extracting(FileInfo::name)
                    .contains("g.bin");
            Path local = tmp.resolve("g.copy");
            assertThat(session.download(globus.root() + "/g.bin", local, TransferOptions.STREAM, TransferListener.NONE))
                    .isEqualTo(data.length);
            assertThat(Files.readAllBytes(local)).isEqualTo(data);
            assertThat(session.upload(
                            local, globus.root() + "/up.bin", TransferOptions.extendedBlock(2), TransferListener.NONE))
                    .isEqualTo(data.length);
        }
        assertThat(Files.readAllBytes(globus.root().resolve("up.bin"))).isEqualTo(data);
    }

    @Test
    void ferryClientRefusesAGlobusServerWithAnotherName() throws Exception {
        GsiClientSecurity security = new GsiClientSecurity(
                globus.proxy(),
                globus.pki().validator(),
                globus.pki().trust(),
                org.ferry.gsi.context.DelegationMode.LIMITED,
                Duration.ofHours(1),
                "/O=Grid/OU=GlobusSrv/CN=host/not-this-one");
        try (GridFtpClient client = new GridFtpClient(Duration.ofSeconds(30), security)) {
            assertThatThrownBy(() -> client.open(globus.url()))
                    .hasMessageContaining("GSI authentication with localhost failed")
                    .hasMessageContaining("peer /O=Grid/OU=GlobusSrv/CN=host/localhost is not the expected identity");
        }
    }
}
