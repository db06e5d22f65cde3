package org.ferry.mover.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.net.ftp.FTPClient;
import org.ferry.mover.server.dtp.DtpFactory;
import org.ferry.mover.server.pi.GridFtpServerConfig;
import org.ferry.mover.server.popen.PopenAllowList;
import org.ferry.mover.server.popen.PopenPolicy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Popen driver's behaviour on the wire (stream mode, raw data sockets): after {@code SITE
 * SETDISKSTACK popen:argv=#prog#args}, RETR sends the program's standard output and STOR feeds its
 * standard input, with Debian's own {@code /bin/tar}, {@code /bin/echo}, {@code /bin/sleep} and
 * {@code /usr/bin/yes} as the allowed programs; what is refused, and how a failing, hanging or
 * flooding program ends the transfer.
 */
class PopenServerTest {

    private static final Pattern PASV = Pattern.compile("\\((\\d+),(\\d+),(\\d+),(\\d+),(\\d+),(\\d+)\\)");

    @TempDir
    Path tmp;

    private Path root;
    private GridFtpServer server;
    private FTPClient ftp;

    @BeforeEach
    void start() throws IOException {
        root = Files.createDirectory(tmp.resolve("root"));
        Path spool = Files.createDirectory(tmp.resolve("spool"));
        PopenPolicy policy = new PopenPolicy(
                PopenAllowList.parse("tar:/bin/tar,echo:/bin/echo,sleep:/bin/sleep,yes:/usr/bin/yes"),
                Duration.ofSeconds(2),
                spool,
                1 << 20);
        server = GridFtpServer.start(
                GridFtpServerConfig.loopback(root).withAuthenticator((u, p) -> u.equals("alice") && p.equals("pw")),
                null,
                DtpFactory.local(),
                policy);
        ftp = new FTPClient();
        ftp.setDefaultTimeout(20_000);
        ftp.connect("127.0.0.1", server.port());
        ftp.setSoTimeout(20_000);
        assertThat(ftp.login("alice", "pw")).isTrue();
        assertThat(send("TYPE I")).isEqualTo(200);
    }

    @AfterEach
    void stop() throws IOException {
        if (ftp.isConnected()) {
            ftp.disconnect();
        }
        server.close();
    }

    private int send(String line) throws IOException {
        int space = line.indexOf(' ');
        return space < 0 ? ftp.sendCommand(line) : ftp.sendCommand(line.substring(0, space), line.substring(space + 1));
    }

    private int pasv() throws IOException {
        assertThat(send("PASV")).isEqualTo(227);
        Matcher m = PASV.matcher(ftp.getReplyString());
        assertThat(m.find()).isTrue();
        return Integer.parseInt(m.group(5)) * 256 + Integer.parseInt(m.group(6));
    }

    /** RETR over a fresh PASV connection; @return the final reply code, the bytes in {@code into}. */
    private int retrieve(String path, ByteArrayOutputStream into) throws IOException {
        try (Socket data = new Socket("127.0.0.1", pasv())) {
            int first = send("RETR " + path);
            if (first != 150) {
                return first;
            }
            into.write(data.getInputStream().readAllBytes());
        }
        ftp.getReply();
        return ftp.getReplyCode();
    }

    private int store(String path, byte[] bytes) throws IOException {
        try (Socket data = new Socket("127.0.0.1", pasv())) {
            int first = send("STOR " + path);
            if (first != 150) {
                return first;
            }
            try (OutputStream out = data.getOutputStream()) {
                out.write(bytes);
            }
        }
        ftp.getReply();
        return ftp.getReplyCode();
    }

    private static List<String> tarNames(byte[] tar) throws IOException {
        List<String> names = new ArrayList<>();
        try (TarArchiveInputStream in = new TarArchiveInputStream(new ByteArrayInputStream(tar))) {
            TarArchiveEntry entry;
            while ((entry = in.getNextEntry()) != null) {
                names.add(entry.getName());
            }
        }
        return names;
    }

    @Test
    void srcPipeSendsWhatTarWrites() throws IOException {
        Files.createDirectories(root.resolve("data/run1/sub"));
        Files.writeString(root.resolve("data/run1/a.txt"), "alpha");
        Files.writeString(root.resolve("data/run1/sub/b.txt"), "beta");
        assertThat(send("SITE SETDISKSTACK popen:argv=#tar#cf#-#-C#" + root.resolve("data") + "#run1"))
                .isEqualTo(250);
        ByteArrayOutputStream tar = new ByteArrayOutputStream();
        assertThat(retrieve("/ignored", tar)).isEqualTo(226);
        assertThat(tarNames(tar.toByteArray()))
                .containsExactlyInAnyOrder("run1/", "run1/a.txt", "run1/sub/", "run1/sub/b.txt");
        // the stack stays for the session's next transfers, until set back
        ByteArrayOutputStream again = new ByteArrayOutputStream();
        assertThat(retrieve("/ignored", again)).isEqualTo(226);
        assertThat(again.toByteArray()).isEqualTo(tar.toByteArray());
        assertThat(send("SITE SETDISKSTACK default")).isEqualTo(250);
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        assertThat(retrieve("/data/run1/a.txt", file)).isEqualTo(226);
        assertThat(file.toString(StandardCharsets.UTF_8)).isEqualTo("alpha");
    }

    @Test
    void dstPipeGivesTheReceivedBytesToTar() throws IOException {
        Files.createDirectories(root.resolve("src/run1"));
        Files.writeString(root.resolve("src/run1/a.txt"), "alpha");
        assertThat(send("SITE SETDISKSTACK popen:argv=#tar#cf#-#-C#" + root.resolve("src") + "#run1"))
                .isEqualTo(250);
        ByteArrayOutputStream tar = new ByteArrayOutputStream();
        assertThat(retrieve("/x", tar)).isEqualTo(226);
        Path archive = Files.createDirectory(root.resolve("archive"));
        assertThat(send("SITE SETDISKSTACK popen:argv=#tar#xf#-#-C#" + archive + ",ordering"))
                .isEqualTo(250);
        assertThat(store("/y", tar.toByteArray())).isEqualTo(226);
        assertThat(archive.resolve("run1/a.txt")).hasContent("alpha");
        assertThat(root.resolve("y")).doesNotExist(); // the path is ignored, as globus ignores it
    }

    @Test
    void argumentsArePassedLiterallyNeverThroughAShell() throws IOException {
        // ; and , separate driver options and drivers: a client writes them as %3B and %2C
        assertThat(send("SITE SETDISKSTACK popen:argv=#echo#$(id)#`id`#*#a b#%3B#|#>x#a%2Cb"))
                .isEqualTo(250);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(retrieve("/x", out)).isEqualTo(226);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("$(id) `id` * a b ; | >x a,b\n");
        assertThat(root.resolve("x")).doesNotExist();
    }

    @Test
    void aProgramOffTheListIsRefusedByNameAndRunsNothing() throws IOException {
        Files.writeString(root.resolve("f"), "file");
        assertThat(send("SITE SETDISKSTACK popen:argv=#sh#-c#touch " + root.resolve("pwned")))
                .isEqualTo(500);
        assertThat(ftp.getReplyString()).contains("'sh'").contains("allow list");
        assertThat(root.resolve("pwned")).doesNotExist();
        // the refused stack changed nothing: RETR reads the file
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(retrieve("/f", out)).isEqualTo(226);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("file");
    }

    @Test
    void aFailingProgramsStatusAndStandardErrorAreTheReplyAndNoDataGoesOut() throws IOException {
        assertThat(send("SITE SETDISKSTACK popen:argv=#tar#cf#-#-C#" + root + "#missing"))
                .isEqualTo(250);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Socket data = new Socket("127.0.0.1", pasv())) {
            assertThat(send("RETR /x")).isEqualTo(451);
            assertThat(ftp.getReplyString())
                    .contains("/bin/tar exited with status 2")
                    .contains("missing: Cannot stat");
            assertThat(data.getInputStream().readAllBytes()).isEmpty();
        }
        assertThat(send("NOOP")).isEqualTo(200);
    }

    @Test
    void aProgramFailingMidStreamOnStorGetsNo226() throws IOException {
        Path archive = Files.createDirectory(root.resolve("archive"));
        assertThat(send("SITE SETDISKSTACK popen:argv=#tar#xf#-#-C#" + archive)).isEqualTo(250);
        byte[] notTar = "this is not a tar archive, and it is long enough to be read as one header"
                .repeat(20)
                .getBytes(StandardCharsets.UTF_8);
        assertThat(store("/y", notTar)).isEqualTo(451);
        assertThat(ftp.getReplyString()).contains("/bin/tar exited with status");
    }

    @Test
    void aHangingProgramIsStoppedAtTheTimeout() throws IOException {
        assertThat(send("SITE SETDISKSTACK popen:argv=#sleep#600")).isEqualTo(250);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(retrieve("/x", out)).isEqualTo(451);
        assertThat(ftp.getReplyString()).contains("/bin/sleep stopped: still running after 2 s");
        assertThat(ProcessHandle.current()
                        .descendants()
                        .filter(p -> p.info().commandLine().orElse("").contains("sleep 600")))
                .isEmpty();
    }

    @Test
    void aFloodingProgramIsStoppedAtTheSpoolLimit() throws IOException {
        assertThat(send("SITE SETDISKSTACK popen:argv=#yes#flood")).isEqualTo(250);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(retrieve("/x", out)).isEqualTo(552);
        assertThat(ftp.getReplyString()).contains("spool limit of 1048576 bytes");
        assertThat(out.size()).isZero();
    }

    @Test
    void aClientCannotSendMoreThanTheSpoolLimit() throws IOException {
        assertThat(send("SITE SETDISKSTACK popen:argv=#tar#xf#-#-C#" + root)).isEqualTo(250);
        pasv();
        assertThat(send("ALLO 2000000")).isEqualTo(200);
        assertThat(send("STOR /y")).isEqualTo(552);
        assertThat(store("/y", new byte[(1 << 20) + 4096])).isIn(552, 426);
        assertThat(send("NOOP")).isEqualTo(200);
    }

    @Test
    void restartIsRefused() throws IOException {
        assertThat(send("SITE SETDISKSTACK popen:argv=#echo#hi")).isEqualTo(250);
        pasv();
        assertThat(send("REST 5")).isEqualTo(350);
        assertThat(send("RETR /x")).isEqualTo(504);
    }

    @Test
    void dataChannelStacksOfTcpAndGsiAreAcceptedOthersRefused() throws IOException {
        assertThat(send("SITE SETNETSTACK tcp,gsi")).isEqualTo(250);
        assertThat(send("SITE SETNETSTACK udt")).isEqualTo(500);
        assertThat(ftp.getReplyString()).contains("'udt'");
    }
}
