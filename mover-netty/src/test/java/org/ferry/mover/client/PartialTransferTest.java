package org.ferry.mover.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.ferry.mover.server.Authenticator;
import org.ferry.mover.server.GridFtpServer;
import org.ferry.mover.server.GridFtpServerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Partial transfers with the Ferry client (ERET P / ESTO A, gridftp-protocol.md section 2.5). */
class PartialTransferTest {

    @TempDir
    Path tmp;
    Path sourceRoot;
    Path destinationRoot;
    GridFtpServer source;
    GridFtpServer destination;
    GridFtpClient client;
    byte[] data = new byte[5_000_000];
    byte[] old = new byte[5_000_000];

    @BeforeEach
    void start() throws IOException {
        sourceRoot = Files.createDirectory(tmp.resolve("src"));
        destinationRoot = Files.createDirectory(tmp.resolve("dst"));
        Authenticator alice = (u, p) -> u.equals("alice") && p.equals("pw");
        source = GridFtpServer.start(GridFtpServerConfig.loopback(sourceRoot).withAuthenticator(alice));
        destination = GridFtpServer.start(GridFtpServerConfig.loopback(destinationRoot).withAuthenticator(alice));
        client = new GridFtpClient();
        new Random(1).nextBytes(data);
        new Random(2).nextBytes(old);
        Files.write(sourceRoot.resolve("f"), data);
    }

    @AfterEach
    void stop() {
        client.close();
        source.close();
        destination.close();
    }

    private GridFtpSession open(GridFtpServer server) throws IOException {
        return client.open(GridFtpUrl.parse("ftp://alice:pw@127.0.0.1:" + server.port() + "/"));
    }

    private byte[] spliced(byte[] base, int offset, int length) {
        byte[] expected = base.clone();
        System.arraycopy(data, offset, expected, offset, length);
        return expected;
    }

    @Test
    void thirdPartyAndTwoPartyWindowsInBothModes() throws Exception {
        try (GridFtpSession src = open(source); GridFtpSession dst = open(destination)) {
            for (TransferOptions options : new TransferOptions[] {TransferOptions.STREAM, TransferOptions.extendedBlock(3)}) {
                Files.write(destinationRoot.resolve("t"), old);
                assertThat(src.sendPartTo("/f", 1_234_567, 2_000_000, dst, "/t", options, TransferListener.NONE))
                        .isEqualTo(2_000_000);
                assertThat(Files.readAllBytes(destinationRoot.resolve("t"))).isEqualTo(spliced(old, 1_234_567, 2_000_000));

                Path local = tmp.resolve("local-" + options.mode());
                Files.write(local, old);
                src.downloadPart("/f", 4_000_000, 10_000_000, local, options, TransferListener.NONE);
                assertThat(Files.readAllBytes(local)).isEqualTo(spliced(old, 4_000_000, 1_000_000));

                Files.write(destinationRoot.resolve("u"), old);
                Files.write(local, data);
                dst.uploadPart(local, 77, 300_000, "/u", options, TransferListener.NONE);
                assertThat(Files.readAllBytes(destinationRoot.resolve("u"))).isEqualTo(spliced(old, 77, 300_000));
            }
            assertThat(Arrays.equals(data, old)).isFalse();
        }
    }
}
