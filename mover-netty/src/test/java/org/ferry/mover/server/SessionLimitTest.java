package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.ferry.mover.server.pi.SessionLimitHandler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --max-sessions}: a connection beyond the limit gets globus-gridftp-server's 421 and is
 * closed before any banner, the sessions already open keep working, and a place freed by a QUIT
 * is given to the next connection.
 */
class SessionLimitTest {

    @TempDir
    Path root;

    /** A control connection read line by line. */
    private record Control(Socket socket, BufferedReader in, OutputStream out) implements AutoCloseable {
        static Control open(int port) throws Exception {
            Socket socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout(10_000);
            return new Control(
                    socket,
                    new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8)),
                    socket.getOutputStream());
        }

        String send(String command) throws Exception {
            out.write((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return in.readLine();
        }

        @Override
        public void close() throws Exception {
            socket.close();
        }
    }

    @Test
    void aLoginBeyondTheLimitGets421AndTheOthersGoOn() throws Exception {
        try (GridFtpServer server = GridFtpServer.start(
                GridFtpServerConfig.loopback(root).withAnonymousAllowed(true).withMaxSessions(2))) {
            try (Control first = Control.open(server.port());
                    Control second = Control.open(server.port())) {
                assertThat(first.in().readLine()).startsWith("220 ");
                assertThat(second.in().readLine()).startsWith("220 ");
                try (Control third = Control.open(server.port())) {
                    assertThat(third.in().readLine()).isEqualTo(SessionLimitHandler.REFUSAL);
                    assertThat(third.in().readLine()).as("closed after the 421").isNull();
                }
                assertThat(first.send("USER anonymous")).startsWith("331 ");
                assertThat(first.send("PASS x")).startsWith("230 ");
                assertThat(second.send("NOOP")).startsWith("200 ");

                assertThat(second.send("QUIT")).startsWith("221 ");
                assertThat(second.in().readLine()).isNull();
            }
            // both closed: their places come back (the server counts the close on its loop)
            Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                try (Control again = Control.open(server.port());
                        Control another = Control.open(server.port())) {
                    assertThat(again.in().readLine()).startsWith("220 ");
                    assertThat(another.in().readLine()).startsWith("220 ");
                }
            });
        }
    }

    @Test
    void noLimitByDefault() throws Exception {
        try (GridFtpServer server =
                GridFtpServer.start(GridFtpServerConfig.loopback(root).withAnonymousAllowed(true))) {
            try (Control a = Control.open(server.port());
                    Control b = Control.open(server.port());
                    Control c = Control.open(server.port())) {
                assertThat(a.in().readLine()).startsWith("220 ");
                assertThat(b.in().readLine()).startsWith("220 ");
                assertThat(c.in().readLine()).startsWith("220 ");
            }
        }
    }
}
