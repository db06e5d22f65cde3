package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.Adler32;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.junit.jupiter.api.Test;

class GridFtpServerControlTest extends ServerTestSupport {

    @Test
    void loginVariants() throws Exception {
        assertThat(send("PWD")).isEqualTo(530);
        assertThat(send("PASS x")).isEqualTo(503);
        assertThat(ftp.login("alice", "wrong")).isFalse();
        assertThat(ftp.getReplyCode()).isEqualTo(530);
        assertThat(send("MKD x")).isEqualTo(530);
        assertThat(ftp.login("anonymous", "globus@")).isTrue();
        assertThat(send("USER alice")).isEqualTo(503);
        assertThat(send("PWD")).isEqualTo(257);
        assertThat(ftp.getReplyString()).startsWith("257 \"/\" is current directory.");
        assertThat(Files.exists(root.resolve("x"))).isFalse();
    }

    @Test
    void thirdFailedLoginClosesTheSession() throws Exception {
        assertThat(ftp.login("mallory", "a")).isFalse();
        assertThat(ftp.login("mallory", "b")).isFalse();
        assertThat(ftp.login("alice", "c")).isFalse();
        assertThat(ftp.getReplyCode()).isEqualTo(530);
        org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class, () -> {
            for (int i = 0; i < 3; i++) {
                ftp.sendCommand("NOOP");
            }
        });
    }

    @Test
    void preLoginCommandsAllowed() throws Exception {
        assertThat(send("SYST")).isEqualTo(215);
        assertThat(send("NOOP")).isEqualTo(200);
        assertThat(send("FEAT")).isEqualTo(211);
        assertThat(send("HELP")).isEqualTo(214);
        assertThat(send("SITE HELP")).isEqualTo(530);
    }

    @Test
    void featListsExactlyTheImplementedFeatures() throws Exception {
        login();
        assertThat(send("FEAT")).isEqualTo(211);
        String[] lines = ftp.getReplyStrings();
        assertThat(lines[0]).isEqualTo("211-Extensions supported");
        assertThat(lines[lines.length - 1]).isEqualTo("211 End.");
        List<String> features = new ArrayList<>(List.of(lines).subList(1, lines.length - 1));
        assertThat(features)
                .containsExactlyInAnyOrder(
                        " MDTM",
                        " SIZE",
                        " REST STREAM",
                        " MLST Type*;Size*;Modify*;Perm*;UNIX.mode*;",
                        " PARALLEL",
                        " UTF8",
                        " CKSM MD5;ADLER32;SHA1;SHA256;SHA512;CRC32C;SHA256-TREE;",
                        " ERET",
                        " ESTO",
                        " TARSTREAM",
                        " SBUF",
                        " MFMT",
                        " SPAS",
                        " SPOR");
    }

    @Test
    void unknownAndMalformedCommandsKeepTheSessionAlive() throws Exception {
        login();
        assertThat(send("XYZZY foo")).isEqualTo(500);
        assertThat(ftp.getReplyString()).startsWith("500 Invalid command.");
        assertAlive();
        assertThat(send("PORT 1,2,3")).isEqualTo(501);
        assertThat(send("PORT 127,0,0,1,999,1")).isEqualTo(501);
        assertThat(send("PORT a,b,c,d,e,f")).isEqualTo(501);
        assertAlive();
        assertThat(send("EPRT |1|not-an-ip|5000|")).isEqualTo(501);
        assertThat(send("EPRT |3|1.2.3.4|5000|")).isEqualTo(522);
        assertThat(send("PORT 127,0,0,1,200,10")).isEqualTo(200);
        assertThat(send("EPRT |1|127.0.0.1|5000|")).isEqualTo(200);
        assertThat(send("TYPE X")).isEqualTo(501);
        assertThat(send("TYPE I")).isEqualTo(200);
        assertThat(send("MODE Z")).isEqualTo(501);
        assertThat(send("MODE E")).isEqualTo(200);
        assertThat(send("MODE S")).isEqualTo(200);
        assertThat(send("STRU R")).isEqualTo(501);
        assertThat(send("STRU F")).isEqualTo(200);
        assertThat(send("REST abc")).isEqualTo(501);
        assertThat(send("REST 100")).isEqualTo(350);
        assertThat(send("REST 0-100,200-300")).isEqualTo(350);
        assertThat(send("CKSM CRC32 0 -1 x")).isEqualTo(504);
        assertThat(send("CKSM MD5")).isEqualTo(501);
        assertThat(send("SBUF abc")).isEqualTo(501);
        assertThat(send("SBUF 1048576")).isEqualTo(200);
        assertThat(send("ALLO 1234")).isEqualTo(200);
        assertThat(send("RNTO x")).isEqualTo(503);
        assertThat(send("SITE BOGUS")).isEqualTo(500);
        assertAlive();
    }

    @Test
    void overlongLineGets500AndSessionLives() throws Exception {
        login();
        assertThat(send("MKD " + "a".repeat(5000))).isEqualTo(500);
        assertAlive();
        assertThat(Files.list(root)).isEmpty();
    }

    @Test
    void siteAndOptsCommandsGlobusSends() throws Exception {
        login();
        assertThat(send("SITE HELP")).isEqualTo(214);
        assertThat(ftp.getReplyStrings()[0]).isEqualTo("214-The following commands are recognized:");
        assertThat(ftp.getReplyString()).contains("SITE CLIENTINFO").contains("RETR");
        assertThat(send("SITE CLIENTINFO scheme=ftp;appname=\"globus-url-copy\";appver=\"10.4\";"))
                .isEqualTo(250);
        assertThat(send("OPTS RETR Parallelism=4,4,4;")).isEqualTo(200);
        assertThat(send("opts retr parallelism=2,2,2;StripeLayout=Blocked;BlockSize=1048576;"))
                .isEqualTo(200);
        assertThat(send("OPTS RETR Parallelism=4,4,4")).isEqualTo(500);
        assertThat(send("OPTS RETR Bogus=1;")).isEqualTo(500);
        assertThat(send("OPTS UTF8 ON")).isEqualTo(200);
        assertAlive();
    }

    @Test
    void directoryNavigationAndManipulation() throws Exception {
        login();
        assertThat(ftp.makeDirectory("a")).isTrue();
        assertThat(ftp.getReplyString()).startsWith("257 \"/a\"");
        assertThat(ftp.makeDirectory("a")).isFalse();
        assertThat(ftp.getReplyCode()).isEqualTo(553);
        assertThat(ftp.changeWorkingDirectory("a")).isTrue();
        assertThat(ftp.printWorkingDirectory()).isEqualTo("/a");
        assertThat(ftp.makeDirectory("b")).isTrue();
        assertThat(ftp.changeWorkingDirectory("b")).isTrue();
        assertThat(ftp.printWorkingDirectory()).isEqualTo("/a/b");
        assertThat(ftp.changeToParentDirectory()).isTrue();
        assertThat(ftp.printWorkingDirectory()).isEqualTo("/a");
        assertThat(ftp.changeWorkingDirectory("/a/b")).isTrue();
        assertThat(ftp.changeWorkingDirectory("/nope")).isFalse();
        assertThat(ftp.getReplyCode()).isEqualTo(550);
        Files.writeString(root.resolve("a/f.txt"), "hello");
        assertThat(ftp.changeWorkingDirectory("/a/f.txt")).isFalse();
        assertThat(ftp.getReplyCode()).isEqualTo(550);
        assertThat(ftp.changeWorkingDirectory("/")).isTrue();
        assertThat(ftp.changeToParentDirectory()).isFalse();
        assertThat(ftp.getReplyCode()).isEqualTo(550);

        assertThat(ftp.rename("/a/f.txt", "/a/b/g.txt")).isTrue();
        assertThat(Files.readString(root.resolve("a/b/g.txt"))).isEqualTo("hello");
        assertThat(ftp.rename("/a/missing", "/a/x")).isFalse();
        assertThat(ftp.getReplyCode()).isEqualTo(550);
        assertThat(ftp.removeDirectory("/a/b")).isFalse();
        assertThat(ftp.getReplyCode()).isEqualTo(550);
        assertThat(ftp.deleteFile("/a/b")).isFalse();
        assertThat(ftp.deleteFile("/a/b/g.txt")).isTrue();
        assertThat(ftp.removeDirectory("/a/b")).isTrue();
        assertThat(ftp.deleteFile("/a/b/g.txt")).isFalse();
        assertThat(ftp.getReplyCode()).isEqualTo(550);
        assertThat(ftp.removeDirectory("/")).isFalse();
        assertThat(Files.exists(root.resolve("a"))).isTrue();
        assertThat(Files.exists(root.resolve("a/b"))).isFalse();
    }

    @Test
    void sizeMdtmMlstAndChecksums() throws Exception {
        login();
        byte[] data = new byte[300_000];
        new java.util.Random(7).nextBytes(data);
        Files.write(root.resolve("data.bin"), data);
        Files.setLastModifiedTime(root.resolve("data.bin"), FileTime.from(Instant.parse("2026-11-22T10:15:30Z")));
        Files.setPosixFilePermissions(
                root.resolve("data.bin"), java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));

        assertThat(send("SIZE data.bin")).isEqualTo(213);
        assertThat(ftp.getReplyString().strip()).isEqualTo("213 300000");
        assertThat(send("SIZE /")).isEqualTo(550);
        assertThat(send("SIZE nope")).isEqualTo(550);
        assertThat(send("MDTM /data.bin")).isEqualTo(213);
        assertThat(ftp.getReplyString().strip()).isEqualTo("213 20261122101530");

        assertThat(send("MLST data.bin")).isEqualTo(250);
        String[] mlst = ftp.getReplyStrings();
        assertThat(mlst[0]).isEqualTo("250-status of data.bin");
        assertThat(mlst[1])
                .isEqualTo(" Type=file;Size=300000;Modify=20261122101530;Perm=adfwr;UNIX.mode=0644; /data.bin");
        assertThat(mlst[2]).isEqualTo("250 End.");
        var parsed = ftp.mlistFile("/data.bin");
        assertThat(parsed.getSize()).isEqualTo(300_000);
        assertThat(parsed.isFile()).isTrue();
        assertThat(send("MLST")).isEqualTo(250);
        assertThat(ftp.getReplyStrings()[1]).startsWith(" Type=dir;").endsWith(" /");

        MessageDigest md5 = MessageDigest.getInstance("MD5");
        assertThat(send("CKSM MD5 0 -1 /data.bin")).isEqualTo(213);
        assertThat(ftp.getReplyString().strip())
                .isEqualTo("213 " + HexFormat.of().formatHex(md5.digest(data)));
        Adler32 adler = new Adler32();
        adler.update(data);
        assertThat(send("CKSM adler32 0 -1 data.bin")).isEqualTo(213);
        assertThat(ftp.getReplyString().strip()).isEqualTo("213 " + String.format("%08x", adler.getValue()));
        Adler32 part = new Adler32();
        part.update(data, 1000, 5000);
        assertThat(send("CKSM ADLER32 1000 5000 data.bin")).isEqualTo(213);
        assertThat(ftp.getReplyString().strip()).isEqualTo("213 " + String.format("%08x", part.getValue()));
        Files.write(root.resolve("one.bin"), new byte[] {1});
        assertThat(send("CKSM ADLER32 0 -1 one.bin")).isEqualTo(213);
        assertThat(ftp.getReplyString().strip()).isEqualTo("213 00020002"); // 8 digits, zero-padded
    }

    @Test
    void pathsNeverEscapeTheRoot() throws Exception {
        Files.createSymbolicLink(root.resolve("etc"), java.nio.file.Path.of("/etc"));
        Files.createSymbolicLink(root.resolve("passwd"), java.nio.file.Path.of("/etc/passwd"));
        Files.createSymbolicLink(root.resolve("out"), outside);
        login();
        assertThat(ftp.changeWorkingDirectory("..")).isFalse();
        assertThat(ftp.getReplyCode()).isEqualTo(550);
        assertThat(ftp.changeWorkingDirectory("/../..")).isFalse();
        assertThat(ftp.getReplyCode()).isEqualTo(550);
        assertThat(ftp.changeWorkingDirectory("etc")).isFalse();
        assertThat(ftp.getReplyCode()).isEqualTo(550);
        assertThat(ftp.printWorkingDirectory()).isEqualTo("/");
        for (String command : List.of(
                "SIZE ../outside/secret.txt",
                "SIZE /../../etc/passwd",
                "SIZE passwd",
                "SIZE etc/passwd",
                "MDTM out/secret.txt",
                "MLST etc",
                "MLST out/secret.txt",
                "CKSM MD5 0 -1 passwd",
                "CKSM MD5 0 -1 ../outside/secret.txt",
                "MKD ../outside/new",
                "MKD out/new",
                "DELE ../outside/secret.txt",
                "DELE out/secret.txt",
                "RMD ../outside",
                "RNFR ../outside/secret.txt",
                "RNFR out/secret.txt",
                "CWD out")) {
            assertThat(send(command)).as(command).isEqualTo(550);
        }
        Files.writeString(root.resolve("mine.txt"), "mine");
        assertThat(send("RNFR mine.txt")).isEqualTo(350);
        assertThat(send("RNTO ../outside/stolen.txt")).isEqualTo(550);
        assertThat(send("RNFR mine.txt")).isEqualTo(350);
        assertThat(send("RNTO out/stolen.txt")).isEqualTo(550);
        assertAlive();
        try (var files = Files.list(outside)) {
            assertThat(files.map(p -> p.getFileName().toString()).toList()).containsExactly("secret.txt");
        }
        assertThat(Files.readString(outside.resolve("secret.txt"))).isEqualTo("top secret");
        assertThat(Files.readString(root.resolve("mine.txt"))).isEqualTo("mine");
        // deleting a link inside the root removes the link, not its target
        assertThat(send("DELE out")).isEqualTo(250);
        assertThat(Files.exists(outside.resolve("secret.txt"))).isTrue();
    }

    @Test
    void transferWithoutDataEndpointIs425() throws Exception {
        login();
        Files.writeString(root.resolve("keep.txt"), "keep me");
        assertThat(send("STOR keep.txt")).isEqualTo(425);
        assertThat(send("RETR keep.txt")).isEqualTo(425);
        assertThat(Files.readString(root.resolve("keep.txt"))).isEqualTo("keep me");
        assertThat(send("MODE E")).isEqualTo(200);
        assertThat(send("PORT 127,0,0,1,200,10")).isEqualTo(200);
        assertThat(send("STOR keep.txt")).isEqualTo(503);
        assertThat(Files.readString(root.resolve("keep.txt"))).isEqualTo("keep me");
        assertAlive();
    }

    @Test
    void pipelinedCommandsAreAnsweredInOrder() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            OutputStream out = socket.getOutputStream();
            assertThat(in.readLine()).startsWith("220 ");
            out.write(("NOOP\r\nPWD\r\nUSER alice\r\nPASS wonderland\nPWD\r\nBOGUS\r\nMKD d\r\nCWD d\r\nPWD\r\n"
                            + "X".repeat(5000) + "\r\nQUIT\r\n")
                    .getBytes(StandardCharsets.UTF_8));
            out.flush();
            List<String> replies = new ArrayList<>();
            String line;
            while ((line = in.readLine()) != null) {
                replies.add(line);
            }
            assertThat(replies)
                    .extracting(r -> r.substring(0, 3))
                    .containsExactly("200", "530", "331", "230", "257", "500", "257", "250", "257", "500", "221");
            assertThat(replies.get(8)).startsWith("257 \"/d\"");
        }
    }

    /**
     * A login pipelined with settings (as Ferry's client and others send them): the worker answers
     * USER and PASS, the event loop the settings after them; every reply must still come in the
     * order of the commands. Many sessions, because the overtaking this guards against needed the
     * worker to finish between two commands of one read.
     */
    @Test
    void pipelinedLoginAndSettingsAreAnsweredInOrderInEverySession() throws Exception {
        byte[] commands = ("USER anonymous\r\nPASS x@\r\nTYPE I\r\nMODE E\r\nFEAT\r\nNOOP\r\nPWD\r\n"
                        + "MODE S\r\nTYPE A\r\nQUIT\r\n")
                .getBytes(StandardCharsets.UTF_8);
        for (int session = 0; session < 400; session++) {
            try (Socket socket = new Socket("127.0.0.1", server.port())) {
                socket.setSoTimeout(10_000);
                BufferedReader in =
                        new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
                assertThat(in.readLine()).startsWith("220 ");
                socket.getOutputStream().write(commands);
                List<String> codes = new ArrayList<>();
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.length() >= 4 && line.charAt(3) == ' ') {
                        codes.add(line.substring(0, 3)); // the last line of each reply
                    }
                }
                assertThat(codes)
                        .as("session %d", session)
                        .containsExactly("331", "230", "200", "200", "211", "200", "257", "200", "200", "221");
            }
        }
    }

    @Test
    void idleSessionsAreClosedWith421() throws Exception {
        server.close();
        server = GridFtpServer.start(GridFtpServerConfig.loopback(root)
                .withAnonymousAllowed(true)
                .withIdleTimeout(java.time.Duration.ofMillis(300)));
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(5_000);
            var in = new java.io.BufferedReader(
                    new java.io.InputStreamReader(socket.getInputStream(), java.nio.charset.StandardCharsets.UTF_8));
            assertThat(in.readLine()).startsWith("220 ");
            assertThat(in.readLine()).startsWith("421 ");
            assertThat(in.readLine()).isNull();
        }
    }

    @Test
    void idleSessionsAreClosedWith421WhileTheirLoopSpins() throws Exception {
        server.close();
        // a window far longer than the idle timeout: the timer must fire while the loop polls
        server = GridFtpServer.start(GridFtpServerConfig.loopback(root)
                .withAnonymousAllowed(true)
                .withIdleTimeout(java.time.Duration.ofMillis(300))
                .withBusyPoll(java.time.Duration.ofSeconds(30)));
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            var in = new java.io.BufferedReader(
                    new java.io.InputStreamReader(socket.getInputStream(), java.nio.charset.StandardCharsets.UTF_8));
            var out = socket.getOutputStream();
            assertThat(in.readLine()).startsWith("220 ");
            out.write("USER anonymous\r\nPASS x\r\nTYPE I\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            assertThat(in.readLine()).startsWith("331 ");
            assertThat(in.readLine()).startsWith("230 ");
            assertThat(in.readLine()).startsWith("200 "); // TYPE runs on the loop, which then spins
            assertThat(in.readLine()).startsWith("421 ");
            assertThat(in.readLine()).isNull();
        }
    }
}
