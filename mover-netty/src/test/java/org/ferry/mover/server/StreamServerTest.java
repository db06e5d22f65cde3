package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.ferry.mover.server.popen.PopenPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A control channel over a pair of streams, as sshd or inetd hands it to {@code ferry-gridftp --ssh}
 * ({@link GridFtpServer#serveStreams}): the session runs on them, data channels go over TCP to the
 * address given for this end, and the server is done once the client quits or the input ends.
 */
@org.junit.jupiter.api.Timeout(60)
class StreamServerTest {

    private static final Pattern PASV = Pattern.compile("\\((\\d+),(\\d+),(\\d+),(\\d+),(\\d+),(\\d+)\\)");

    @TempDir
    Path root;

    /** The client's side of the two streams. */
    private static final class Client implements AutoCloseable {
        final OutputStream commands;
        final BufferedReader replies;

        Client(OutputStream commands, BufferedReader replies) {
            this.commands = commands;
            this.replies = replies;
        }

        String command(String line) throws IOException {
            commands.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
            commands.flush();
            return reply();
        }

        String reply() throws IOException {
            StringBuilder all = new StringBuilder();
            while (true) {
                String line = replies.readLine();
                if (line == null) {
                    return all.toString();
                }
                all.append(line).append('\n');
                if (line.length() >= 4 && line.charAt(3) == ' ' && Character.isDigit(line.charAt(0))) {
                    return all.toString();
                }
            }
        }

        @Override
        public void close() throws IOException {
            commands.close();
        }
    }

    @Test
    void aSessionRunsOverTheStreamsWithDataOverTcp() throws Exception {
        Files.writeString(root.resolve("f.txt"), "over stdio");
        PipedOutputStream toServer = new PipedOutputStream();
        PipedInputStream serverIn = new PipedInputStream(toServer, 65536);
        PipedInputStream fromServer = new PipedInputStream(65536);
        PipedOutputStream serverOut = new PipedOutputStream(fromServer);
        InetSocketAddress local = new InetSocketAddress(InetAddress.getLoopbackAddress(), 22);
        GridFtpServer server = GridFtpServer.serveStreams(
                GridFtpServerConfig.loopback(root).withAuthenticator((u, p) -> true),
                null,
                PopenPolicy.disabled(),
                serverIn,
                serverOut,
                local,
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 40000));
        CompletableFuture<Void> ended = CompletableFuture.runAsync(server::awaitClose);
        try (Client client = new Client(
                toServer, new BufferedReader(new InputStreamReader(fromServer, StandardCharsets.US_ASCII)))) {
            assertThat(client.reply()).startsWith("220 ");
            assertThat(client.command("USER whoever")).startsWith("331 ");
            assertThat(client.command("PASS anything")).startsWith("230 ");
            assertThat(client.command("TYPE I")).startsWith("200 ");
            String pasv = client.command("PASV");
            Matcher m = PASV.matcher(pasv);
            assertThat(m.find()).as(pasv).isTrue();
            assertThat(m.group(1) + "." + m.group(2) + "." + m.group(3) + "." + m.group(4))
                    .isEqualTo("127.0.0.1");
            try (Socket data =
                    new Socket("127.0.0.1", Integer.parseInt(m.group(5)) * 256 + Integer.parseInt(m.group(6)))) {
                assertThat(client.command("RETR /f.txt")).startsWith("150 ");
                assertThat(new String(data.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                        .isEqualTo("over stdio");
            }
            assertThat(client.reply()).startsWith("226 ");
            assertThat(client.command("QUIT")).startsWith("221 ");
            ended.get(10, TimeUnit.SECONDS); // the server is done once the session is
        } finally {
            server.close();
        }
    }

    @Test
    void theEndOfTheInputEndsTheServer() throws Exception {
        PipedOutputStream toServer = new PipedOutputStream();
        PipedInputStream serverIn = new PipedInputStream(toServer);
        PipedInputStream fromServer = new PipedInputStream(65536);
        GridFtpServer server = GridFtpServer.serveStreams(
                GridFtpServerConfig.loopback(root),
                null,
                PopenPolicy.disabled(),
                serverIn,
                new PipedOutputStream(fromServer),
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 22),
                null);
        try {
            CompletableFuture<Void> ended = CompletableFuture.runAsync(server::awaitClose);
            toServer.close(); // ssh went away
            ended.get(10, TimeUnit.SECONDS);
        } finally {
            server.close();
        }
    }
}
