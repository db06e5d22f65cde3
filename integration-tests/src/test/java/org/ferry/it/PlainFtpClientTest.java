package org.ferry.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import org.ferry.it.infra.FtpFaultProxy;
import org.ferry.it.infra.PlainFtpServer;
import org.ferry.mover.client.GridFtpClient;
import org.ferry.mover.client.GridFtpSession;
import org.ferry.mover.client.GridFtpUrl;
import org.ferry.mover.client.TransferListener;
import org.ferry.mover.client.TransferOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ferry's client against a plain FTP server that speaks stream mode only (pyftpdlib, pinned, from
 * PyPI), two-party: uploads and downloads of small files byte for byte, and the order RFC 959
 * section 5.2 gives a store: the data go only after the server's 125/150, which a plain server may
 * need (pyftpdlib takes a data connection that sends and closes before it read STOR for an empty
 * transfer, and then waits for another). The server's passive connections pass through an
 * {@link FtpFaultProxy} that holds each 150 to a store until the data connection arrives (two
 * seconds at most) and counts the connections that came first.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PlainFtpClientTest {

    private Path root;
    private PlainFtpServer server;
    private FtpFaultProxy proxy;
    private GridFtpClient client;

    @BeforeAll
    void start(@TempDir Path work) throws Exception {
        root = Files.createDirectories(work.resolve("root"));
        server = PlainFtpServer.start(root, work.resolve("pyftpdlib"));
        proxy = new FtpFaultProxy(server.port());
        client = new GridFtpClient();
    }

    @AfterAll
    void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        if (proxy != null) {
            proxy.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private GridFtpSession open() throws Exception {
        return client.open(GridFtpUrl.parse("ftp://anonymous:test@127.0.0.1:" + proxy.port()));
    }

    @Test
    void smallUploadsSendTheirDataAfterThe150() throws Exception {
        Random random = new Random(41);
        Path local = Files.createTempDirectory(root.getParent(), "local");
        int before = proxy.dataBeforePreliminary();
        proxy.holdPreliminaryReplies(Duration.ofSeconds(2));
        try (GridFtpSession session = open()) {
            for (int i = 0; i < 3; i++) {
                byte[] data = new byte[1 + random.nextInt(4000)];
                random.nextBytes(data);
                Path file = Files.write(local.resolve("up" + i), data);
                long bytes = session.upload(file, "/up" + i, TransferOptions.STREAM, TransferListener.NONE);
                assertThat(bytes).isEqualTo(data.length);
                assertThat(Files.readAllBytes(root.resolve("up" + i))).isEqualTo(data);
            }
        } finally {
            proxy.holdPreliminaryReplies(Duration.ZERO);
        }
        assertThat(proxy.dataBeforePreliminary() - before)
                .as("uploads whose data connection reached the server before its 150 to STOR")
                .isZero();
    }

    @Test
    void smallDownloadsArriveWhole() throws Exception {
        Random random = new Random(43);
        Path local = Files.createTempDirectory(root.getParent(), "down");
        try (GridFtpSession session = open()) {
            for (int i = 0; i < 3; i++) {
                byte[] data = new byte[random.nextInt(4000)];
                random.nextBytes(data);
                Files.write(root.resolve("down" + i), data);
                Path copy = local.resolve("down" + i);
                session.download("/down" + i, copy, TransferOptions.STREAM, TransferListener.NONE);
                assertThat(Files.readAllBytes(copy)).isEqualTo(data);
            }
        }
    }
}
