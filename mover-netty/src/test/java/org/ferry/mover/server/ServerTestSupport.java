package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.commons.net.ftp.FTPClient;
import org.apache.commons.net.ftp.FTPReply;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** Starts a real server on 127.0.0.1, port 0, over {@code tmp/root}; {@code tmp/outside} is a sibling. */
abstract class ServerTestSupport {

    @TempDir
    Path tmp;

    Path root;
    Path outside;
    GridFtpServer server;
    FTPClient ftp;

    @BeforeEach
    void startServer() throws IOException {
        root = Files.createDirectory(tmp.resolve("root"));
        outside = Files.createDirectory(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "top secret");
        server = GridFtpServer.start(GridFtpServerConfig.loopback(root)
                .withAnonymousAllowed(true)
                .withAuthenticator((u, p) -> u.equals("alice") && p.equals("wonderland"))
                .withMarkerInterval(Duration.ofMillis(200)));
        ftp = new FTPClient();
        ftp.setDefaultTimeout(10_000);
        ftp.setConnectTimeout(10_000);
        ftp.connect("127.0.0.1", server.port());
        ftp.setSoTimeout(10_000);
        assertThat(ftp.getReplyCode()).isEqualTo(220);
    }

    @AfterEach
    void stopServer() throws IOException {
        if (ftp.isConnected()) {
            ftp.disconnect();
        }
        server.close();
    }

    void login() throws IOException {
        assertThat(ftp.login("alice", "wonderland")).isTrue();
        assertThat(ftp.getReplyCode()).isEqualTo(230);
    }

    int send(String line) throws IOException {
        int space = line.indexOf(' ');
        return space < 0 ? ftp.sendCommand(line) : ftp.sendCommand(line.substring(0, space), line.substring(space + 1));
    }

    /** Sends PASV, expects 227 and returns the port it names. */
    int pasv() throws IOException {
        assertThat(send("PASV")).isEqualTo(227);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\((\\d+),(\\d+),(\\d+),(\\d+),(\\d+),(\\d+)\\)")
                .matcher(ftp.getReplyString());
        assertThat(m.find()).as(ftp.getReplyString()).isTrue();
        return Integer.parseInt(m.group(5)) * 256 + Integer.parseInt(m.group(6));
    }

    void assertAlive() throws IOException {
        assertThat(ftp.sendCommand("NOOP")).isEqualTo(FTPReply.COMMAND_OK);
    }
}
