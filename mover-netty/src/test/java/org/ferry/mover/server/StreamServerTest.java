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

    /** Runs a server on the given input to its end and returns everything it wrote. */
    private String serveToTheEnd(String input) throws Exception {
        java.io.ByteArrayOutputStream written = new java.io.ByteArrayOutputStream();
        GridFtpServer server = GridFtpServer.serveStreams(
                GridFtpServerConfig.loopback(root).withAuthenticator((u, p) -> true),
                null,
                PopenPolicy.disabled(),
                new java.io.ByteArrayInputStream(input.getBytes(StandardCharsets.US_ASCII)),
                written,
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 22),
                null);
        try {
            CompletableFuture.runAsync(server::awaitClose).get(30, TimeUnit.SECONDS);
        } finally {
            server.close();
        }
        return written.toString(StandardCharsets.US_ASCII);
    }

    /** @return the codes of the replies' last lines, in order */
    private static java.util.List<String> codes(String replies) {
        return replies.lines()
                .filter(line -> line.length() >= 4 && line.charAt(3) == ' ' && Character.isDigit(line.charAt(0)))
                .map(line -> line.substring(0, 3))
                .toList();
    }

    @Test
    void aWholeSessionWrittenBeforeTheInputEndsIsAnsweredInFullAndInOrder() throws Exception {
        // what `printf '...' | ferry-gridftp --ssh` gives: every command, then the end of the input
        // at once (the first commands run on the worker, the loop sees the end meanwhile)
        String replies = serveToTheEnd(
                "USER whoever\r\nPASS anything\r\nSYST\r\nTYPE I\r\nMKD /made\r\nPWD\r\nNOOP\r\nQUIT\r\n");
        assertThat(codes(replies))
                .as(replies)
                .containsExactly("220", "331", "230", "215", "200", "257", "257", "200", "221");
        assertThat(root.resolve("made")).isDirectory();
    }

    @Test
    void withoutQuitTheServerAnswersWhatItReadThenEndsAndIgnoresAnUnfinishedLine() throws Exception {
        String replies = serveToTheEnd("USER whoever\r\nPASS anything\r\nSYST\r\nMKD /m2\r\nNOOP");
        assertThat(codes(replies)).as(replies).containsExactly("220", "331", "230", "215", "257");
        assertThat(root.resolve("m2")).isDirectory();
    }

    @Test
    void aTransferRunningWhenTheInputEndsFinishesAndTheCommandsAfterItAreAnswered() throws Exception {
        Files.writeString(root.resolve("g.txt"), "after the end of input");
        PipedOutputStream toServer = new PipedOutputStream();
        PipedInputStream serverIn = new PipedInputStream(toServer, 65536);
        PipedInputStream fromServer = new PipedInputStream(65536);
        GridFtpServer server = GridFtpServer.serveStreams(
                GridFtpServerConfig.loopback(root).withAuthenticator((u, p) -> true),
                null,
                PopenPolicy.disabled(),
                serverIn,
                new PipedOutputStream(fromServer),
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 22),
                null);
        CompletableFuture<Void> ended = CompletableFuture.runAsync(server::awaitClose);
        try (Client client = new Client(
                toServer, new BufferedReader(new InputStreamReader(fromServer, StandardCharsets.US_ASCII)))) {
            assertThat(client.reply()).startsWith("220 ");
            assertThat(client.command("USER whoever")).startsWith("331 ");
            assertThat(client.command("PASS anything")).startsWith("230 ");
            String pasv = client.command("PASV");
            Matcher m = PASV.matcher(pasv);
            assertThat(m.find()).as(pasv).isTrue();
            // the RETR waits for its data connection, which comes only after the input ended
            client.commands.write("RETR /g.txt\r\nSYST\r\n".getBytes(StandardCharsets.US_ASCII));
            client.commands.close();
            try (Socket data =
                    new Socket("127.0.0.1", Integer.parseInt(m.group(5)) * 256 + Integer.parseInt(m.group(6)))) {
                assertThat(new String(data.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                        .isEqualTo("after the end of input");
            }
            assertThat(client.reply()).startsWith("150 ");
            assertThat(client.reply()).startsWith("226 ");
            assertThat(client.reply()).startsWith("215 ");
            assertThat(client.replies.readLine()).isNull(); // then the server closed its output
            ended.get(10, TimeUnit.SECONDS);
        } finally {
            server.close();
        }
    }
}
