package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;
import org.ferry.mover.protocol.FileInfo;
import org.ferry.mover.server.pi.Authenticator;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Ferry's own GridFTP client against two embedded Ferry servers: two-party and third-party. */
class GridFtpServerFerryClientTest {

    @TempDir
    Path tmp;

    Path sourceRoot;
    Path destinationRoot;
    GridFtpServer source;
    GridFtpServer destination;
    GridFtpClient client;

    /**
     * @param busyPoll the servers' busy poll window: {@link Duration#ZERO} (embedded default) or the
     *     stand-alone server's, under which a loop that answered a command polls instead of blocking
     */
    void start(Duration busyPoll) throws IOException {
        sourceRoot = Files.createDirectory(tmp.resolve("src"));
        destinationRoot = Files.createDirectory(tmp.resolve("dst"));
        Authenticator alice = (u, p) -> u.equals("alice") && p.equals("pw");
        source = GridFtpServer.start(GridFtpServerConfig.loopback(sourceRoot)
                .withAuthenticator(alice)
                .withBusyPoll(busyPoll));
        destination = GridFtpServer.start(GridFtpServerConfig.loopback(destinationRoot)
                .withAuthenticator(alice)
                .withBusyPoll(busyPoll));
        client = new GridFtpClient();
    }

    @AfterEach
    void stop() {
        // null when start failed part way
        if (client != null) {
            client.close();
        }
        if (source != null) {
            source.close();
        }
        if (destination != null) {
            destination.close();
        }
    }

    private GridFtpSession open(GridFtpServer server) throws IOException {
        return client.open(GridFtpUrl.parse("ftp://alice:pw@127.0.0.1:" + server.port() + "/"));
    }

    @ParameterizedTest(name = "busy poll {0}")
    @ValueSource(strings = {"PT0S", "PT0.0004S"})
    void twoPartyAndThirdPartyTransfersInBothModes(Duration busyPoll) throws Exception {
        start(busyPoll);
        byte[] data = new byte[3_000_000];
        new Random(5).nextBytes(data);
        Files.write(sourceRoot.resolve("a.bin"), data);
        Path local = tmp.resolve("local.bin");
        try (GridFtpSession src = open(source);
                GridFtpSession dst = open(destination)) {
            for (TransferOptions options : List.of(TransferOptions.STREAM, TransferOptions.extendedBlock(4))) {
                Files.deleteIfExists(local);
                assertThat(src.download("/a.bin", local, options, TransferListener.NONE))
                        .isEqualTo(data.length);
                assertThat(Files.readAllBytes(local)).isEqualTo(data);
                String name = "/up-" + options.mode() + ".bin";
                assertThat(dst.upload(local, name, options, TransferListener.NONE))
                        .isEqualTo(data.length);
                assertThat(Files.readAllBytes(destinationRoot.resolve(name.substring(1))))
                        .isEqualTo(data);
                String third = "/third-" + options.mode() + ".bin";
                src.sendTo("/a.bin", dst, third, options, TransferListener.NONE);
                assertThat(Files.readAllBytes(destinationRoot.resolve(third.substring(1))))
                        .isEqualTo(data);
            }
            dst.makeDirectory("/dir");
            List<FileInfo> entries = dst.list("/");
            assertThat(entries).extracting(FileInfo::name).contains("dir", "up-STREAM.bin", "third-EXTENDED_BLOCK.bin");
            assertThat(dst.stat("/third-STREAM.bin").sizeBytes()).isEqualTo(data.length);
            assertThat(dst.checksum("MD5", "/third-STREAM.bin"))
                    .isEqualTo(HexFormat.of()
                            .formatHex(MessageDigest.getInstance("MD5").digest(data)));
            dst.delete("/up-STREAM.bin");
            assertThat(Files.exists(destinationRoot.resolve("up-STREAM.bin"))).isFalse();
            assertThatThrownBy(() -> src.stat("/../../etc/passwd")).isInstanceOf(IOException.class);
        }
    }
}
