package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.commons.net.ftp.FTP;
import org.apache.commons.net.ftp.FTPClient;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server-wide data rate limit holds in both directions. Only lower bounds on the time are
 * asserted: a busy machine makes a transfer slower, never faster, so the test cannot flake.
 */
class DataRateLimitTest {

    private static final long LIMIT = 1 << 20; // bytes per second
    private static final int SIZE = 3 << 20;

    @TempDir
    Path root;

    private GridFtpServer server;
    private FTPClient ftp;

    @BeforeEach
    void start() throws Exception {
        server = GridFtpServer.start(
                GridFtpServerConfig.loopback(root).withAnonymousAllowed(true).withDataRateLimit(LIMIT));
        ftp = new FTPClient();
        ftp.setDefaultTimeout(30_000);
        ftp.connect("127.0.0.1", server.port());
        ftp.setSoTimeout(30_000);
        assertThat(ftp.login("anonymous", "test@")).isTrue();
        ftp.setFileType(FTP.BINARY_FILE_TYPE);
        ftp.enterLocalPassiveMode();
    }

    @AfterEach
    void stop() throws Exception {
        ftp.disconnect();
        server.close();
    }

    @Test
    void sendingIsCappedAtTheLimit() throws Exception {
        byte[] data = random();
        Files.write(root.resolve("big.bin"), data);
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        long start = System.nanoTime();
        assertThat(ftp.retrieveFile("big.bin", received)).isTrue();
        long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(received.toByteArray()).isEqualTo(data);
        // 3 MiB at 1 MiB/s: about 3 s; allow the first measuring period's burst
        assertThat(elapsedMillis).isGreaterThanOrEqualTo(1_500);
    }

    @Test
    void receivingIsCappedAtTheLimit() throws Exception {
        byte[] data = random();
        long start = System.nanoTime();
        assertThat(ftp.storeFile("up.bin", new ByteArrayInputStream(data))).isTrue();
        long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(Files.readAllBytes(root.resolve("up.bin"))).isEqualTo(data);
        // about 3 s; the server's receive window (a tenth of a second at the limit) and the first
        // measuring period's burst arrive unpaced
        assertThat(elapsedMillis).isGreaterThanOrEqualTo(1_500);
    }

    private static byte[] random() {
        byte[] data = new byte[SIZE];
        new Random(7).nextBytes(data);
        return data;
    }
}
