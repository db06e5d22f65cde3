package org.ferry.mover.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Client behaviour against a scripted control channel peer (a plain loopback socket): login
 * failures, silent servers and garbage, which a real server will not produce on demand.
 */
class GridFtpClientFailureTest {

    private final GridFtpClient client = new GridFtpClient(Duration.ofMillis(500));
    private ServerSocket server;
    /** Holds each scripted connection open until the test ends, so no close races a client timeout. */
    private final CountDownLatch testEnded = new CountDownLatch(1);

    @AfterEach
    void close() throws IOException {
        testEnded.countDown();
        client.close();
        if (server != null) {
            server.close();
        }
    }

    /** Serves one connection with {@code script(reader, writer)}; returns the URL to reach it. */
    private GridFtpUrl serve(BiConsumer<BufferedReader, OutputStream> script) throws IOException {
        server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        CompletableFuture.runAsync(() -> {
            try (Socket s = server.accept()) {
                script.accept(
                        new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8)),
                        s.getOutputStream());
                testEnded.await(); // keep the connection open while the client waits
            } catch (Exception e) {
                // the test checks the client side
            }
        });
        return GridFtpUrl.parse("ftp://127.0.0.1:" + server.getLocalPort());
    }

    private static void say(OutputStream out, String lines) {
        try {
            out.write(lines.getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    private static String read(BufferedReader in) {
        try {
            return in.readLine();
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    @Test
    void refusedLoginIsAReplyExceptionWithMaskedPassword() throws IOException {
        GridFtpUrl url = serve((in, out) -> {
            say(out, "220-Welcome\r\n to a multi-line banner\r\n220 ready\r\n");
            read(in);
            say(out, "331 Password required.\r\n");
            read(in);
            say(out, "530-Login incorrect.\r\n530 End.\r\n");
        });
        assertThatThrownBy(() -> client.open(url.withPath("/")))
                .isInstanceOf(GridFtpReplyException.class)
                .satisfies(e -> {
                    assertThat(((GridFtpReplyException) e).replyCode()).isEqualTo(530);
                    assertThat(((GridFtpReplyException) e).isTransient()).isFalse();
                    assertThat(e.getMessage()).doesNotContain("globus@");
                });
    }

    @Test
    void silentServerTimesOut() throws IOException {
        GridFtpUrl url = serve((in, out) -> {
            say(out, "220 ready\r\n");
            read(in); // USER, never answered
        });
        assertThatThrownBy(() -> client.open(url))
                .isInstanceOf(SocketTimeoutException.class)
                .hasMessageContaining("USER");
    }

    @Test
    void garbageFailsWithIoException() throws IOException {
        GridFtpUrl url = serve((in, out) -> say(out, "HTTP/1.1 400 Bad Request\r\n\r\n"));
        assertThatThrownBy(() -> client.open(url)).isInstanceOf(IOException.class);
    }

    @Test
    void unsupportedSchemeIsRefused() {
        assertThatThrownBy(() -> client.open(GridFtpUrl.parse("gsiftp://127.0.0.1:1/")))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("gsiftp");
    }
}
